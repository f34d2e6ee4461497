import { afterAll, beforeAll, describe } from 'vitest'
import { matrixTests } from './matrix.ts'
import { openSuite } from './suite.ts'
import { createPeople, type People } from './world.ts'

const { stack, drivers } = await openSuite()
afterAll(() => stack.stop())

describe.each(drivers)('RLS matrix through $name', (driver) => {
  let people: People
  beforeAll(async () => {
    people = await createPeople(stack)
  })
  matrixTests(driver, () => ({ stack, people }))
})

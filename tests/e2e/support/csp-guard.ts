import { afterEach, expect } from 'vitest'
import { takeViolations } from './csp.ts'

// Every e2e test fails on a Content-Security-Policy violation, whether it happened in the
// test or in the setup before it (signing up in beforeAll, say).
afterEach(() => {
  expect(takeViolations(), 'Content-Security-Policy violations').toEqual([])
})

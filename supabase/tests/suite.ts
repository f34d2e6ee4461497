import { type Driver, restDriver, sqlDriver } from './drivers.ts'
import { serviceAvailable, startStack, type Stack } from './stack.ts'

/**
 * One localbase for a test file, and the ways to reach it: SQL in the request context
 * always, supabase-js as soon as localbase's REST service answers.
 */
export async function openSuite(): Promise<{ stack: Stack; drivers: Driver[] }> {
  const stack = await startStack()
  if (await serviceAvailable(stack, '/rest/v1/workspaces?select=id&limit=0'))
    return { stack, drivers: [sqlDriver, restDriver] }
  console.warn('localbase REST is not available yet: testing through SQL only')
  return { stack, drivers: [sqlDriver] }
}

// Stands in for `jsr:@supabase/functions-js/edge-runtime.d.ts` (not fetchable offline): the
// globals the hosted edge runtime adds, for `deno check`. At run time the import is empty.
declare global {
  const EdgeRuntime: {
    waitUntil(promise: Promise<unknown>): void
  }
}
export {}

/* global Deno */
// Runs one Edge Function under Deno the way the hosted edge runtime does, for localbase.
// Plain JavaScript so that the Node project's tsc never sees Deno globals.
// Usage: deno run bootstrap.js <entry file URL> <ready marker>
// The function's own `Deno.serve(...)` (or `export default { fetch }`) supplies the handler;
// this script owns the one real listener, on a free loopback port, and prints
// `<marker> <port>` on stdout once the module has loaded, which localbase waits for.

const [entry, marker] = Deno.args
const serveNative = Deno.serve.bind(Deno)
let handler = null
let server = null

const workerError = () =>
  Response.json(
    { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' },
    { status: 500, headers: { 'sb-error-code': 'WORKER_ERROR' } },
  )

async function dispatch(request, info) {
  try {
    return await handler(request, info)
  } catch (error) {
    console.error(error)
    return workerError()
  }
}

function listen() {
  server ??= serveNative(
    { hostname: '127.0.0.1', port: 0, onListen() {}, onError: workerError },
    dispatch,
  )
  return server
}

// Hosted functions may call Deno.serve with (handler), (options, handler) or ({ handler }); the
// port they ask for is the platform's business, so every form lands on our listener.
Deno.serve = (first, second) => {
  handler = typeof first === 'function' ? first : (second ?? first?.handler)
  return listen()
}

// stdin is a pipe from localbase that ends when localbase does, however it ends (even
// SIGKILL), so a function process never outlives the server that started it.
;(async () => {
  for await (const _chunk of Deno.stdin.readable);
  Deno.exit(0)
})()

globalThis.EdgeRuntime = {
  waitUntil(promise) {
    Promise.resolve(promise).catch((error) => console.error(error))
  },
}

const module = await import(entry)
if (!handler && typeof module.default?.fetch === 'function') {
  handler = (request, info) => module.default.fetch(request, info)
}
if (!handler) {
  console.error(`${entry} neither calls Deno.serve nor exports default { fetch }`)
  Deno.exit(1)
}
console.log(`${marker} ${listen().addr.port}`)

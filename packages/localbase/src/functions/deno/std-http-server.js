/* global Deno */
// Stands in for `https://deno.land/std@<version>/http/server.ts`, which cannot be fetched
// offline: old functions import its `serve`, which maps onto Deno.serve.

/**
 * @param {(request: Request, connInfo: { remoteAddr: unknown }) => Response | Promise<Response>} handler
 * @param {{ signal?: AbortSignal, onListen?: (params: unknown) => void }} [options]
 * @returns {Promise<void>}
 */
export function serve(handler, options = {}) {
  const server = Deno.serve({ ...options }, (request, info) =>
    handler(request, { remoteAddr: info.remoteAddr }),
  )
  return server.finished
}

// Sourcebook as an MCP server: POST /functions/v1/mcp, MCP's Streamable HTTP transport,
// authenticated by a workspace access token (`Authorization: Bearer sbk_…`). Stateless, as
// the transport allows: every POST stands alone (a server and transport per request, no
// Mcp-Session-Id), which suits short-lived function processes; answers are JSON, not SSE
// (the server's choice under the spec), and GET (a server-to-client stream) and DELETE (ending
// a session) are 405. The tools act as the token's person through PostgREST, RLS and the
// search and chat functions (session.ts).
import { callerOf } from '../_shared/caller.ts'
import { corsHeaders, fail } from '../_shared/http.ts'
import { WebStandardStreamableHTTPServerTransport } from './deps.ts'
import { createServer } from './server.ts'
import { openSession } from './session.ts'

const cors = {
  ...corsHeaders,
  'Access-Control-Allow-Headers': `${corsHeaders['Access-Control-Allow-Headers']}, mcp-protocol-version, mcp-session-id, last-event-id`,
  'Access-Control-Expose-Headers': 'mcp-session-id, www-authenticate, retry-after',
}

function withCors(response: Response): Response {
  const headers = new Headers(response.headers)
  for (const [name, value] of Object.entries(cors)) headers.set(name, value)
  return new Response(response.body, { status: response.status, headers })
}

Deno.serve(async (req) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: cors })
  if (req.method !== 'POST') {
    const refused = fail(405, 'method_not_allowed', 'This MCP server is stateless: use POST')
    refused.headers.set('Allow', 'POST, OPTIONS')
    return withCors(refused)
  }
  const caller = await callerOf(req)
  if (caller instanceof Response) return withCors(caller)
  if (!caller.grant) {
    const refused = fail(
      401,
      'token_required',
      'The MCP server takes a workspace access token (Settings → Access tokens): Bearer sbk_…',
    )
    refused.headers.set('WWW-Authenticate', 'Bearer realm="sourcebook"')
    return withCors(refused)
  }
  const server = createServer(openSession(caller.grant, caller.authorization))
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return withCors(await transport.handleRequest(req))
  } finally {
    // JSON answers are complete once handleRequest returns.
    await server.close()
  }
})

// The AI models the server can use, decided by the functions' environment: GET or POST →
// { chat: [{ id, label, provider }], embedding: [{ id, label, provider, dimensions }],
// rerank: [{ id, label, provider }] }.
// Empty lists mean no provider is configured: search is lexical and answers are extracted.
import { availableModels } from '../_shared/ai/providers.ts'
import { corsHeaders, fail, reply } from '../_shared/http.ts'

// Unlike the other functions this one also answers GET, so the preflight must allow it.
const preflightHeaders = { ...corsHeaders, 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS' }

Deno.serve((req) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: preflightHeaders })
  if (req.method !== 'GET' && req.method !== 'POST') {
    return fail(405, 'method_not_allowed', 'Use GET or POST')
  }
  return reply(availableModels())
})

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FunctionsHttpError } from '@supabase/supabase-js'
import { supabase } from '@/lib/supabase'
import { accessTokenKeys } from './keys'

// The protocol version the mcp function speaks (MCP's Streamable HTTP transport).
const PROTOCOL_VERSION = '2025-11-25'

type JsonRpcAnswer<T> = { result?: T; error?: { message: string } }
type Initialized = { serverInfo: { name: string; title?: string } }
type ToolList = { tools: { name: string }[] }

/** One JSON-RPC request to the mcp function with the token, as an MCP client sends it. */
async function rpc<T>(token: string, method: string, params: unknown): Promise<T> {
  const { data, error } = await supabase.functions.invoke<JsonRpcAnswer<T>>('mcp', {
    body: { jsonrpc: '2.0', id: 1, method, params },
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL_VERSION,
    },
  })
  if (error instanceof FunctionsHttpError) {
    const body = await (error.context as Response).json().catch(() => null)
    throw new Error(body?.message ?? `The server refused the token (HTTP ${error.context.status})`)
  }
  if (error) throw error
  if (!data?.result) throw new Error(data?.error?.message ?? 'The server gave no answer')
  return data.result
}

/**
 * Connects as an MCP client would (initialize, then list the tools) with a pasted token, and
 * says what the client will see.
 */
export async function testConnection(token: string) {
  const initialized = await rpc<Initialized>(token, 'initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'sourcebook-settings', version: '1.0.0' },
  })
  const { tools } = await rpc<ToolList>(token, 'tools/list', {})
  return { server: initialized.serverInfo.title ?? initialized.serverInfo.name, tools }
}

export function useTestConnection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: testConnection,
    // The test is a use: the list's "Last used" moves.
    onSettled: () => queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  })
}

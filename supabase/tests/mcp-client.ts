// The official MCP SDK client, connected to the mcp function with an access token, as Claude
// Desktop, Cursor and the rest connect over Streamable HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export async function connectMcp(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'sourcebook-tests', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/functions/v1/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  })
  await client.connect(transport)
  return client
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content
  return content[0]?.text ?? ''
}

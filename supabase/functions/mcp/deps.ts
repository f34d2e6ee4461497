// The MCP TypeScript SDK, pinned in this one place (Deno downloads npm: specifiers on first
// use). The web-standard transport takes a Request and answers a Response, as Deno.serve
// wants; the Node tests drive it with the same SDK version's client.
export { McpServer, ResourceTemplate } from 'npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js'
export { WebStandardStreamableHTTPServerTransport } from 'npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js'
export type { CallToolResult } from 'npm:@modelcontextprotocol/sdk@1.32.2/types.js'

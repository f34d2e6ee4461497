// Configuration for the popular MCP clients, with this workspace's server URL filled in and
// a placeholder where the person pastes their token (it is never put in a snippet for them:
// snippets get copied into chats and tickets).
export const TOKEN_PLACEHOLDER = 'YOUR_SOURCEBOOK_TOKEN'

export const clients = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const
export type McpClient = (typeof clients)[number]

export const clientLabels: Record<McpClient, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
}

type Snippet = { where: string; language: 'json' | 'shell'; text: string }

const json = (value: unknown) => JSON.stringify(value, null, 2)

export function clientSnippet(client: McpClient, serverUrl: string): Snippet {
  const bearer = `Bearer ${TOKEN_PLACEHOLDER}`
  switch (client) {
    case 'claude-desktop':
      // Claude Desktop's config file starts local servers only; mcp-remote bridges to HTTP.
      return {
        where: 'Settings → Developer → Edit Config (claude_desktop_config.json), then restart',
        language: 'json',
        text: json({
          mcpServers: {
            sourcebook: {
              command: 'npx',
              args: ['-y', 'mcp-remote', serverUrl, '--header', 'Authorization:${SOURCEBOOK_AUTH}'],
              env: { SOURCEBOOK_AUTH: bearer },
            },
          },
        }),
      }
    case 'claude-code':
      return {
        where: 'Run in a terminal',
        language: 'shell',
        text: `claude mcp add --transport http sourcebook ${serverUrl} --header "Authorization: ${bearer}"`,
      }
    case 'cursor':
      return {
        where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
        language: 'json',
        text: json({
          mcpServers: { sourcebook: { url: serverUrl, headers: { Authorization: bearer } } },
        }),
      }
    case 'vscode':
      // VS Code asks for the token once and keeps it in its secret storage.
      return {
        where: '.vscode/mcp.json in your project (VS Code asks for the token)',
        language: 'json',
        text: json({
          inputs: [
            {
              type: 'promptString',
              id: 'sourcebook-token',
              description: 'Sourcebook access token',
              password: true,
            },
          ],
          servers: {
            sourcebook: {
              type: 'http',
              url: serverUrl,
              headers: { Authorization: 'Bearer ${input:sourcebook-token}' },
            },
          },
        }),
      }
  }
}

import { CheckIcon, CopyIcon } from 'lucide-react'
import { useState } from 'react'
import { CopyField } from '@/components/layout/copy-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { env } from '@/config/env'
import { useCopy } from '@/hooks/use-copy'
import {
  clientLabels,
  clients,
  clientSnippet,
  type McpClient,
  TOKEN_PLACEHOLDER,
} from '../utils/client-configs'
import { TestConnection } from './test-connection'

const serverUrl = `${env.SUPABASE_URL.replace(/\/+$/, '')}/functions/v1/mcp`

/** How to connect MCP clients: the server's URL, each client's configuration, a test. */
export function ConnectClientsCard() {
  const [client, setClient] = useState<McpClient>('claude-desktop')
  const snippet = clientSnippet(client, serverUrl)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connect an AI assistant</CardTitle>
        <CardDescription>
          Sourcebook is an MCP server: assistants and editors can search and ask this workspace,
          with citations, through an access token.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <Label htmlFor="mcp-server-url">Server URL</Label>
          <CopyField value={serverUrl} label="Server URL" id="mcp-server-url" />
        </div>
        <div className="grid gap-3">
          <div role="group" aria-label="Client" className="flex flex-wrap gap-2">
            {clients.map((name) => (
              <Button
                key={name}
                type="button"
                size="sm"
                variant={name === client ? 'default' : 'outline'}
                aria-pressed={name === client}
                onClick={() => setClient(name)}
              >
                {clientLabels[name]}
              </Button>
            ))}
          </div>
          <p className="text-muted-foreground text-sm">
            {snippet.where}. Replace <code className="font-mono">{TOKEN_PLACEHOLDER}</code> with
            your token.
          </p>
          <pre
            aria-label={`${clientLabels[client]} configuration`}
            tabIndex={0}
            className="bg-muted overflow-x-auto rounded-lg p-3 font-mono text-xs leading-relaxed"
          >
            {snippet.text}
          </pre>
          <CopySnippet text={snippet.text} label={`${clientLabels[client]} configuration`} />
        </div>
        <TestConnection />
      </CardContent>
    </Card>
  )
}

function CopySnippet({ text, label }: { text: string; label: string }) {
  const { copied, copy } = useCopy()
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className="justify-self-start"
      onClick={() => void copy(text)}
      aria-label={`Copy the ${label}`}
    >
      {copied ? <CheckIcon /> : <CopyIcon />} {copied ? 'Copied' : 'Copy'}
    </Button>
  )
}

import { useState } from 'react'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/errors'
import { useTestConnection } from '../api/test-connection'

/** Checks a pasted token against the MCP server, as a client would connect. */
export function TestConnection() {
  const [token, setToken] = useState('')
  const test = useTestConnection()
  return (
    <form
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault()
        if (token.trim()) test.mutate(token.trim())
      }}
    >
      <FormField
        id="test-token"
        label="Test a token"
        hint="Paste a token to check what a client will see. It is sent only to this server."
      >
        <Input
          type="password"
          autoComplete="off"
          placeholder="sbk_…"
          className="font-mono"
          value={token}
          onChange={(event) => {
            setToken(event.target.value)
            test.reset()
          }}
        />
      </FormField>
      <Button
        type="submit"
        variant="outline"
        className="justify-self-start"
        disabled={!token.trim() || test.isPending}
      >
        {test.isPending ? 'Testing…' : 'Test connection'}
      </Button>
      <div aria-live="polite">
        {test.isSuccess ? (
          <p className="text-sm">
            Connected to {test.data.server}. Clients will see {test.data.tools.length} tools:{' '}
            {test.data.tools.map((tool) => tool.name).join(', ')}.
          </p>
        ) : null}
        {test.isError ? <FormError message={errorMessage(test.error)} /> : null}
      </div>
    </form>
  )
}

import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/layout/confirm-dialog'
import type { AccessToken } from '../api/get-access-tokens'
import { useRevokeAccessToken } from '../api/revoke-access-token'
import { CREATE_TOKEN_ID } from './create-token-dialog'
import { expiryText, lastUseText, scopeLabels, tokenState } from '../utils/token-status'

/** One token: what it is called and may do, when it ends, when it was last used. */
export function TokenRow({ token, workspaceId }: { token: AccessToken; workspaceId: string }) {
  const revoke = useRevokeAccessToken(workspaceId)
  const [confirming, setConfirming] = useState(false)
  const state = tokenState(token)
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="truncate text-sm font-medium">{token.name}</span>
          <Badge variant="outline">{scopeLabels[token.scope as 'read' | 'write']}</Badge>
          {state !== 'active' ? (
            <Badge variant="secondary" className="capitalize">
              {state}
            </Badge>
          ) : null}
        </div>
        <p className="text-muted-foreground text-xs">
          <span className="font-mono">{token.prefix}…</span> · {expiryText(token)} ·{' '}
          {lastUseText(token.last_used_at)}
        </p>
      </div>
      {state === 'revoked' ? null : (
        <Button
          size="sm"
          variant="outline"
          aria-label={`Revoke ${token.name}`}
          onClick={() => setConfirming(true)}
        >
          Revoke
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        // The Revoke button is gone once the token is revoked: focus goes to Create token.
        onCloseAutoFocus={(event) => {
          if (!revoke.isSuccess) return
          event.preventDefault()
          document.getElementById(CREATE_TOKEN_ID)?.focus()
        }}
        title={`Revoke “${token.name}”?`}
        description="Every client using this token is refused from its next request. This cannot be undone."
        confirmLabel="Revoke"
        pendingLabel="Revoking…"
        destructive
        onConfirm={async () => {
          await revoke.mutateAsync({ id: token.id, name: token.name })
          setConfirming(false)
        }}
      />
    </li>
  )
}

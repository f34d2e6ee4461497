import { FormError } from '@/components/layout/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { errorMessage } from '@/lib/errors'
import { useSetRequireMfa } from '../api/set-require-mfa'
import type { Workspace } from '../api/types'

/** Settings: an owner makes every member sign in with a code to open this workspace. */
export function RequireMfaCard({ workspace }: { workspace: Workspace }) {
  const update = useSetRequireMfa()
  const isOwner = workspace.role === 'owner'
  const required = workspace.require_mfa
  // The database's refusal carries what to do in its hint.
  const refusal = update.error as { hint?: string } | null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-factor sign-in</CardTitle>
        <CardDescription>
          {required
            ? 'Required: members open this workspace only after entering a code from their authenticator app.'
            : 'Optional. When required, members without an authenticator app see nothing of this workspace until they add one.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <FormError message={update.error ? (refusal?.hint ?? errorMessage(update.error)) : null} />
        {isOwner ? (
          <Button
            variant={required ? 'outline' : 'default'}
            className="justify-self-start"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: workspace.id, requireMfa: !required })}
          >
            {update.isPending
              ? 'Saving…'
              : required
                ? 'Make it optional'
                : 'Require two-factor sign-in'}
          </Button>
        ) : (
          <p className="text-muted-foreground text-sm">Only an owner can change this.</p>
        )}
      </CardContent>
    </Card>
  )
}

import { FormError } from '@/components/layout/form-error'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { errorMessage } from '@/lib/errors'
import { useAccessTokens } from '../api/get-access-tokens'
import { CreateTokenDialog } from './create-token-dialog'
import { TokenRow } from './token-row'

type AccessTokensCardProps = { workspaceId: string; workspaceName: string; canWrite: boolean }

/** The signed-in person's access tokens for this workspace. */
export function AccessTokensCard({ workspaceId, workspaceName, canWrite }: AccessTokensCardProps) {
  const tokens = useAccessTokens(workspaceId)
  return (
    <Card>
      <CardHeader className="gap-4 sm:grid-cols-[1fr_auto]">
        <div className="grid gap-1.5">
          <CardTitle id="access-tokens-heading">Access tokens</CardTitle>
          <CardDescription>
            Your personal keys for AI assistants, editors and scripts. A token can do no more than
            you can here, and stops working if you leave the workspace.
          </CardDescription>
        </div>
        <CreateTokenDialog
          workspaceId={workspaceId}
          workspaceName={workspaceName}
          canWrite={canWrite}
        />
      </CardHeader>
      <CardContent>
        {tokens.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : tokens.isError ? (
          <FormError message={errorMessage(tokens.error)} />
        ) : tokens.data.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            You have no tokens for this workspace yet.
          </p>
        ) : (
          <ul aria-labelledby="access-tokens-heading" className="divide-y rounded-lg border">
            {tokens.data.map((token) => (
              <TokenRow key={token.id} token={token} workspaceId={workspaceId} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

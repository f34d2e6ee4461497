import { zodResolver } from '@hookform/resolvers/zod'
import { KeyRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { CopyField } from '@/components/layout/copy-field'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { errorMessage } from '@/lib/errors'
import {
  type AccessTokenInput,
  accessTokenSchema,
  useCreateAccessToken,
} from '../api/create-access-token'
import { expiries, expiryLabels, scopeLabels } from '../utils/token-status'

/** The dialog's trigger, where focus goes when a revoked token's Revoke button is gone. */
export const CREATE_TOKEN_ID = 'create-access-token'

type CreateTokenDialogProps = { workspaceId: string; workspaceName: string; canWrite: boolean }

/** Names a new token, then shows its secret once, to copy. */
export function CreateTokenDialog({
  workspaceId,
  workspaceName,
  canWrite,
}: CreateTokenDialogProps) {
  const [open, setOpen] = useState(false)
  const create = useCreateAccessToken(workspaceId)
  const form = useForm<AccessTokenInput>({
    resolver: zodResolver(accessTokenSchema),
    defaultValues: { name: '', expiry: '90', scope: 'read' },
  })
  const created = create.data
  // Closing forgets the secret: it is shown once and never again.
  const setOpenAndReset = (next: boolean) => {
    setOpen(next)
    if (!next) {
      create.reset()
      form.reset()
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpenAndReset}>
      <DialogTrigger asChild>
        <Button id={CREATE_TOKEN_ID} className="justify-self-start">
          <KeyRoundIcon /> Create token
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{created ? 'Copy your token' : 'Create an access token'}</DialogTitle>
          <DialogDescription>
            {created
              ? 'This is the only time it is shown. Keep it like a password: anyone who has it can use this workspace as you.'
              : `For an AI assistant, editor or script to use ${workspaceName} as you.`}
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="grid gap-4">
            <CopyField value={created.token} label="Access token" id="new-access-token" />
            <DialogFooter>
              <Button onClick={() => setOpenAndReset(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form
            onSubmit={form.handleSubmit((input) => create.mutate(input))}
            noValidate
            className="grid gap-4"
          >
            <FormError message={create.error ? errorMessage(create.error) : null} />
            <FormField id="token-name" label="Name" error={form.formState.errors.name?.message}>
              <Input
                autoComplete="off"
                placeholder="Claude on my laptop"
                {...form.register('name')}
              />
            </FormField>
            <Controller
              control={form.control}
              name="expiry"
              render={({ field }) => (
                <FormField id="token-expiry" label="Expires after">
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="token-expiry" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {expiries.map((expiry) => (
                        <SelectItem key={expiry} value={expiry}>
                          {expiryLabels[expiry]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </FormField>
              )}
            />
            <Controller
              control={form.control}
              name="scope"
              render={({ field }) => (
                <FormField
                  id="token-scope"
                  label="Access"
                  hint={
                    canWrite
                      ? 'Read: search, ask and read documents. Read and upload: also add documents.'
                      : 'Read: search, ask and read documents. As a viewer, your tokens can only read.'
                  }
                >
                  <Select value={field.value} onValueChange={field.onChange} disabled={!canWrite}>
                    <SelectTrigger id="token-scope" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="read">{scopeLabels.read}</SelectItem>
                      {canWrite ? <SelectItem value="write">{scopeLabels.write}</SelectItem> : null}
                    </SelectContent>
                  </Select>
                </FormField>
              )}
            />
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Creating…' : 'Create token'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

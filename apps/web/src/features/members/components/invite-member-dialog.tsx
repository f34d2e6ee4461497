import { zodResolver } from '@hookform/resolvers/zod'
import { UserPlusIcon } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
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
import { isLocalStack, mailboxUrl } from '@/config/env'
import { errorMessage } from '@/lib/errors'
import {
  type InvitationInput,
  invitationSchema,
  useCreateInvitation,
} from '../api/create-invitation'
import { invitationLink } from '../utils/invitation-link'
import { roleDescriptions } from '../utils/roles'
import { CopyLink } from './copy-link'
import { RoleSelect } from './role-select'

export function InviteMemberDialog({ workspaceId }: { workspaceId: string }) {
  const [open, setOpen] = useState(false)
  const invite = useCreateInvitation(workspaceId)
  const form = useForm<InvitationInput>({
    resolver: zodResolver(invitationSchema),
    defaultValues: { email: '', role: 'viewer' },
  })
  const emailError = form.formState.errors.email?.message
  const sent = invite.data
  // Every way of closing starts the next invitation afresh.
  const setOpenAndReset = (next: boolean) => {
    setOpen(next)
    if (!next) {
      invite.reset()
      form.reset()
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpenAndReset}>
      <DialogTrigger asChild>
        <Button>
          <UserPlusIcon /> Invite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {sent ? (sent.mailError ? 'Invitation ready' : 'Invitation sent') : 'Invite someone'}
          </DialogTitle>
          <DialogDescription>
            {sent
              ? `Anyone signed in as ${sent.email} can join with this link for the next 7 days.`
              : 'They join when they open the link signed in with this email address.'}
          </DialogDescription>
        </DialogHeader>
        {sent ? (
          <div className="grid gap-3 text-sm">
            <CopyLink link={invitationLink(sent.token)} label="Invitation link" />
            {sent.mailError ? (
              <p role="alert" className="text-destructive">
                The mail to {sent.email} could not be sent ({sent.mailError}). Copy the link and
                send it yourself, or resend the invitation later.
              </p>
            ) : (
              <p className="text-muted-foreground">
                We emailed {sent.email} a link that signs them in and opens the invitation.
                {isLocalStack ? (
                  <>
                    {' '}
                    On this local Sourcebook the mail is in the{' '}
                    <a
                      className="text-foreground font-medium underline underline-offset-4"
                      href={mailboxUrl}
                      target="_blank"
                      rel="noreferrer"
                    >
                      dev mailbox
                    </a>
                    .
                  </>
                ) : null}
              </p>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => (invite.reset(), form.reset())}>
                Invite another
              </Button>
              <Button onClick={() => setOpenAndReset(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form
            onSubmit={form.handleSubmit((input) => invite.mutate(input))}
            noValidate
            className="grid gap-4"
          >
            <FormError message={invite.error ? errorMessage(invite.error) : null} />
            <FormField id="invite-email" label="Email" error={emailError}>
              <Input
                type="email"
                autoComplete="off"
                placeholder="name@example.com"
                {...form.register('email')}
              />
            </FormField>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <FormField id="invite-role" label="Role" hint={roleDescriptions[field.value]}>
                  <RoleSelect
                    id="invite-role"
                    label="Role"
                    value={field.value}
                    onChange={field.onChange}
                  />
                </FormField>
              )}
            />
            <DialogFooter>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? 'Inviting…' : 'Create invitation'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

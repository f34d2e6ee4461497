import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheckIcon } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { authErrorMessage } from '../utils/auth-error-message'
import { MailboxNote } from './mailbox-note'

const schema = z.object({ email: z.email('Enter a valid email address') })

type EmailLinkFormProps = {
  submitLabel: string
  sentMessage: string
  send: {
    mutate: (input: { email: string }) => void
    isPending: boolean
    isSuccess: boolean
    error: unknown
  }
}

/** Asks for an email and sends a link to it: used for magic links and password resets. */
export function EmailLinkForm({ submitLabel, sentMessage, send }: EmailLinkFormProps) {
  const form = useForm<{ email: string }>({
    resolver: zodResolver(schema),
    defaultValues: { email: '' },
  })
  const { errors } = form.formState
  const email = form.getValues('email')

  if (send.isSuccess) {
    return (
      <div className="grid gap-4 text-sm">
        <p role="status" className="flex items-start gap-2">
          <MailCheckIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {sentMessage} <strong>{email}</strong>.
          </span>
        </p>
        <MailboxNote email={email} />
      </div>
    )
  }

  return (
    <form
      onSubmit={form.handleSubmit((input) => send.mutate(input))}
      noValidate
      className="grid gap-4"
    >
      <FormError message={send.error ? authErrorMessage(send.error) : null} />
      <FormField id="email" label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoFocus {...form.register('email')} />
      </FormField>
      <Button type="submit" disabled={send.isPending} className="w-full">
        {send.isPending ? 'Sending…' : submitLabel}
      </Button>
      <MailboxNote />
    </form>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/errors'
import {
  type DisplayNameInput,
  displayNameSchema,
  useUpdateDisplayName,
} from '../api/update-display-name'

type DisplayNameFormProps = {
  defaultName: string
  onSaved: () => void
  submitLabel?: string
  hint?: string
}

/** The name fellow members see: on the account page, and before joining a workspace. */
export function DisplayNameForm({
  defaultName,
  onSaved,
  submitLabel = 'Save name',
  hint,
}: DisplayNameFormProps) {
  const update = useUpdateDisplayName()
  const form = useForm<DisplayNameInput>({
    resolver: zodResolver(displayNameSchema),
    defaultValues: { displayName: defaultName },
  })
  const { errors } = form.formState
  return (
    <form
      onSubmit={form.handleSubmit((input) =>
        // Not mutate's onSuccess: the saved name may unmount this form (the invitation page
        // asks only the unnamed), and the caller must still hear of it. Failures show above.
        update.mutateAsync(input).then(onSaved, () => {}),
      )}
      noValidate
      className="grid gap-4"
    >
      <FormError message={update.error ? errorMessage(update.error) : null} />
      <FormField id="displayName" label="Name" error={errors.displayName?.message} hint={hint}>
        <Input autoComplete="name" {...form.register('displayName')} />
      </FormField>
      <Button type="submit" disabled={update.isPending} className="justify-self-start">
        {update.isPending ? 'Saving…' : submitLabel}
      </Button>
    </form>
  )
}

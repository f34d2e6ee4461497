import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { FormError } from '@/components/layout/form-error'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { errorMessage } from '@/lib/errors'
import { type WorkspaceNameInput, workspaceNameSchema } from '../api/create-workspace'

type WorkspaceNameFormProps = {
  defaultName?: string
  submitLabel: string
  pending: boolean
  error: unknown
  disabled?: boolean
  onSubmit: (input: WorkspaceNameInput) => void
}

export function WorkspaceNameForm({
  defaultName = '',
  submitLabel,
  pending,
  error,
  disabled,
  onSubmit,
}: WorkspaceNameFormProps) {
  const form = useForm<WorkspaceNameInput>({
    resolver: zodResolver(workspaceNameSchema),
    defaultValues: { name: defaultName },
  })
  const nameError = form.formState.errors.name?.message
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4">
      <FormError message={error ? errorMessage(error) : null} />
      <FormField id="workspace-name" label="Workspace name" error={nameError}>
        <Input
          autoComplete="off"
          placeholder="e.g. Research"
          disabled={disabled}
          {...form.register('name')}
        />
      </FormField>
      {disabled ? null : (
        <div className="flex justify-end">
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving…' : submitLabel}
          </Button>
        </div>
      )}
    </form>
  )
}

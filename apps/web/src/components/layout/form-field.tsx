import { Slot } from 'radix-ui'
import type * as React from 'react'
import { Label } from '@/components/ui/label'

type FormFieldProps = {
  id: string
  label: string
  error?: string
  hint?: React.ReactNode
  /** Right of the label, e.g. a "Forgot password?" link. */
  aside?: React.ReactNode
  /** One control; it is given `id`, `aria-invalid` and `aria-describedby` here. */
  children: React.ReactElement
}

/** A label, its control and its message, with the control wired to both for assistive tech. */
export function FormField({ id, label, error, hint, aside, children }: FormFieldProps) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      <Slot.Root
        id={id}
        aria-invalid={!!error}
        aria-describedby={error || hint ? `${id}-message` : undefined}
      >
        {children}
      </Slot.Root>
      {error ? (
        <p id={`${id}-message`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-message`} className="text-muted-foreground text-sm">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

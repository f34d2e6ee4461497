import type * as React from 'react'
import { Label } from '@/components/ui/label'

type FormFieldProps = {
  id: string
  label: string
  error?: string
  hint?: React.ReactNode
  /** Right of the label, e.g. a "Forgot password?" link. */
  aside?: React.ReactNode
  children: React.ReactNode
}

/** A label, its control and its message; the control gets `id` and `aria-describedby` itself. */
export function FormField({ id, label, error, hint, aside, children }: FormFieldProps) {
  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      {children}
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

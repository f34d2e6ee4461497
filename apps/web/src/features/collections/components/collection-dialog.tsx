import { zodResolver } from '@hookform/resolvers/zod'
import { Controller, useForm } from 'react-hook-form'
import { FormField } from '@/components/layout/form-field'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import type { Collection } from '../api/get-collections'
import {
  type CollectionInput,
  collectionInputSchema,
  useSaveCollection,
} from '../api/save-collection'
import { ColorPicker } from './color-picker'

type CollectionDialogProps = {
  workspaceId: string
  /** Open: null creates a collection, a collection edits it; undefined is closed. */
  editing: Collection | null | undefined
  onClose: () => void
  /** Told the saved collection (a new one, say, to add the selection to it). */
  onSaved?: (collection: Collection) => void
}

/** Creates or edits a collection: its name, colour and description. */
export function CollectionDialog({
  workspaceId,
  editing,
  onClose,
  onSaved,
}: CollectionDialogProps) {
  return (
    <Dialog open={editing !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit collection' : 'New collection'}</DialogTitle>
          <DialogDescription>
            Collections group documents, so a search or a conversation can keep to them. A document
            can be in several; deleting a collection keeps its documents.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted while open only, so each opening starts from the collection as it is. */}
        {editing !== undefined ? (
          <CollectionForm
            workspaceId={workspaceId}
            editing={editing}
            onDone={(saved) => {
              onClose()
              if (saved) onSaved?.(saved)
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  )
}

type CollectionFormProps = {
  workspaceId: string
  editing: Collection | null
  onDone: (saved?: Collection) => void
}

function CollectionForm({ workspaceId, editing, onDone }: CollectionFormProps) {
  const save = useSaveCollection()
  const form = useForm<CollectionInput>({
    resolver: zodResolver(collectionInputSchema),
    defaultValues: {
      name: editing?.name ?? '',
      color: editing?.color ?? 'blue',
      description: editing?.description ?? '',
    },
  })
  const { errors } = form.formState
  const submit = form.handleSubmit((input) =>
    save.mutate(editing ? { ...input, workspaceId, id: editing.id } : { ...input, workspaceId }, {
      onSuccess: (saved) => onDone(saved),
    }),
  )
  return (
    <form noValidate className="grid gap-4" onSubmit={submit}>
      <FormField id="collection-name" label="Name" error={errors.name?.message}>
        <Input autoComplete="off" autoFocus maxLength={100} {...form.register('name')} />
      </FormField>
      <Controller
        control={form.control}
        name="color"
        render={({ field }) => <ColorPicker value={field.value} onChange={field.onChange} />}
      />
      <FormField
        id="collection-description"
        label="Description"
        error={errors.description?.message}
        hint="Optional: what belongs in it."
      >
        <textarea
          rows={3}
          maxLength={1000}
          className="border-input placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-ring/50 aria-invalid:border-destructive dark:bg-input/30 w-full rounded-md border bg-transparent px-3 py-2 text-base shadow-xs outline-none focus-visible:ring-[3px] md:text-sm"
          {...form.register('description')}
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onDone()}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : editing ? 'Save' : 'Create collection'}
        </Button>
      </DialogFooter>
    </form>
  )
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { failureToast } from '@/lib/failure-toast'
import { supabase } from '@/lib/supabase'
import { COLLECTION_COLORS } from '../utils/colors'
import type { Collection } from './get-collections'
import { collectionKeys } from './keys'

export const collectionInputSchema = z.object({
  name: z.string().trim().min(1, 'Give it a name').max(100, 'At most 100 characters'),
  color: z.enum(COLLECTION_COLORS),
  description: z.string().trim().max(1000, 'At most 1,000 characters'),
})

export type CollectionInput = z.input<typeof collectionInputSchema>

/** What to save: a new collection in a workspace, or changes to an existing one. */
export type SaveCollectionInput = CollectionInput &
  ({ workspaceId: string; id?: undefined } | { workspaceId: string; id: string })

const duplicateName = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505'

/** Creates or edits a collection; RLS lets editors and owners only. */
export async function saveCollection(input: SaveCollectionInput): Promise<Collection> {
  const fields = collectionInputSchema.parse(input)
  const query = input.id
    ? supabase.from('collections').update(fields).eq('id', input.id)
    : supabase.from('collections').insert({ ...fields, workspace_id: input.workspaceId })
  const { data, error } = await query.select().single()
  if (duplicateName(error)) throw new Error(`There is already a collection named “${fields.name}”`)
  if (error) throw error
  return data as Collection
}

export function useSaveCollection() {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: saveCollection,
    onSuccess: (collection) =>
      queryClient.invalidateQueries({ queryKey: collectionKeys.list(collection.workspace_id) }),
    onError: (error, input) =>
      failureToast(
        input.id ? 'Could not save the collection' : 'Could not create the collection',
        error,
        () => mutation.mutate(input),
      ),
  })
  return mutation
}

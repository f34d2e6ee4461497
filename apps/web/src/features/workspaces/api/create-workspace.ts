import { useMutation, useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { workspaceKeys } from './keys'

export const workspaceNameSchema = z.object({
  name: z.string().trim().min(1, 'Give it a name').max(100, 'Keep it under 100 characters'),
})

export type WorkspaceNameInput = z.infer<typeof workspaceNameSchema>

/** The database makes the creator the owner in the same transaction. */
export async function createWorkspace({ name }: WorkspaceNameInput) {
  const { data, error } = await supabase.from('workspaces').insert({ name }).select().single()
  if (error) throw error
  return data
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.all }),
  })
}

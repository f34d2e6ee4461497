import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import type { WorkspaceNameInput } from './create-workspace'
import { workspaceKeys } from './keys'

export async function renameWorkspace({ id, name }: WorkspaceNameInput & { id: string }) {
  const { data, error } = await supabase
    .from('workspaces')
    .update({ name })
    .eq('id', id)
    .select()
    .single()
  if (error) throw error
  return data
}

export function useRenameWorkspace() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: renameWorkspace,
    onSuccess: () => {
      toast.success('Workspace renamed')
      return queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
    },
    meta: { failure: 'Could not rename the workspace' },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { workspaceKeys } from './keys'

export async function deleteWorkspace(id: string) {
  // `select()` makes a refused delete visible: RLS filters rows silently otherwise.
  const { data, error } = await supabase.from('workspaces').delete().eq('id', id).select('id')
  if (error) throw error
  if (data.length === 0) throw new Error('Only an owner can delete this workspace.')
}

/** A failure is shown by the confirm dialog that asked. */
export function useDeleteWorkspace({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteWorkspace,
    onSuccess: async (_data, id) => {
      queryClient.removeQueries({ queryKey: workspaceKeys.detail(id) })
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.list() })
      toast.success('Workspace deleted')
      onSuccess?.()
    },
  })
}

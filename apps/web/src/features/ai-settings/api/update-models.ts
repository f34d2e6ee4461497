import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { supabase } from '@/lib/supabase'
import { embeddingChange } from '../utils/embedding-change'
import type { AiSettings } from './get-ai-settings'
import { aiSettingsKeys } from './keys'

type ModelChange =
  | { workspaceId: string; kind: 'chat'; model: string | null }
  | { workspaceId: string; kind: 'embedding'; model: string | null; current: AiSettings }

/** Owners only: the update policy refuses anyone else, which `select()` makes visible. */
export async function updateModels(change: ModelChange) {
  const values =
    change.kind === 'chat'
      ? { chat_model: change.model }
      : embeddingChange(change.current.embeddingModel, change.model)
  const { data, error } = await supabase
    .from('workspaces')
    .update(values)
    .eq('id', change.workspaceId)
    .select('id')
  if (error) throw error
  if (data.length === 0) throw new Error('Only an owner can change the models.')
}

export function useUpdateModels({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateModels,
    // The chat model's select stays usable while a choice saves: choices made meanwhile are
    // saved one after another, so the last one chosen is the one kept.
    scope: { id: 'update-models' },
    onSuccess: async (_data, change) => {
      await queryClient.invalidateQueries({
        queryKey: aiSettingsKeys.workspace(change.workspaceId),
      })
      toast.success(change.kind === 'chat' ? 'Chat model saved' : 'Embedding model saved')
      onSuccess?.()
    },
    meta: { failure: 'Could not change the model' },
  })
}

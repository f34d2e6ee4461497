import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { chatKeys } from '../api/keys'

/** Keeps the conversation list live: new, renamed, shared and deleted conversations (use once). */
export function useConversationsRealtime(workspaceId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    const channel = supabase
      .channel(channelTopic(`conversations:${workspaceId}`))
      .on(
        'postgres_changes',
        {
          event: '*',
          schema: 'public',
          table: 'conversations',
          filter: `workspace_id=eq.${workspaceId}`,
        },
        () => void queryClient.invalidateQueries({ queryKey: chatKeys.conversations(workspaceId) }),
      )
      .subscribe()
    return () => {
      void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

import type { RealtimeChannel } from '@supabase/supabase-js'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { supabase } from '@/lib/supabase'
import { chatKeys } from '../api/keys'

/** Keeps the conversation list live: new, renamed, shared and deleted conversations (use once). */
export function useConversationsRealtime(workspaceId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    // Joined a tick later: React's development remount would otherwise reuse the channel it
    // is still leaving (supabase-js returns the existing channel of a topic).
    let channel: RealtimeChannel | null = null
    const join = setTimeout(() => {
      channel = supabase
        .channel(`conversations:${workspaceId}`)
        .on(
          'postgres_changes',
          {
            event: '*',
            schema: 'public',
            table: 'conversations',
            filter: `workspace_id=eq.${workspaceId}`,
          },
          () =>
            void queryClient.invalidateQueries({ queryKey: chatKeys.conversations(workspaceId) }),
        )
        .subscribe()
    })
    return () => {
      clearTimeout(join)
      if (channel) void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

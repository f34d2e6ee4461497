import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { chatKeys } from '../api/keys'
import type { Conversation } from '../api/types'

/** Keeps the conversation list live: new, renamed, shared and deleted conversations (use once). */
export function useConversationsRealtime(workspaceId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    const refresh = () =>
      queryClient.invalidateQueries({ queryKey: chatKeys.conversations(workspaceId) })
    // A DELETE carries only the primary key (nothing else of a row RLS can no longer check), so
    // no workspace filter can match it: every delete arrives, and those of conversations this
    // tab holds count.
    const deleted = ({ old }: { old: Partial<Conversation> }) => {
      const id = old.id
      if (!id) return
      const listed = queryClient.getQueryData<Conversation[]>(chatKeys.conversations(workspaceId))
      const open = queryClient.getQueryData(chatKeys.conversation(workspaceId, id))
      if (!open && !listed?.some((c) => c.id === id)) return
      queryClient.setQueryData(chatKeys.deleted(id), true)
      void refresh()
    }
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
        () => void refresh(),
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'conversations' },
        deleted,
      )
      .subscribe()
    return () => {
      void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { memberKeys } from '../api/keys'

/**
 * Keeps the member list live: any change to the workspace's memberships (roles, joins,
 * removals) refetches it, and `onChange` lets the caller refresh what depends on roles.
 */
export function useMembersRealtime(workspaceId: string, onChange?: () => void) {
  const queryClient = useQueryClient()
  const callback = useRef(onChange)
  useEffect(() => {
    callback.current = onChange
  })
  useEffect(() => {
    const channel = supabase
      .channel(channelTopic(`workspace-members:${workspaceId}`))
      .on(
        'postgres_changes',
        {
          event: '*',
          schema: 'public',
          table: 'workspace_members',
          filter: `workspace_id=eq.${workspaceId}`,
        },
        () => {
          void queryClient.invalidateQueries({ queryKey: memberKeys.members(workspaceId) })
          callback.current?.()
        },
      )
      .subscribe()
    return () => {
      void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

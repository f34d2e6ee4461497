import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { supabase } from '@/lib/supabase'
import { memberKeys } from '../api/keys'

// supabase-js hands back the existing channel of a topic until the server confirms that
// channel's leave, and joining a leaving channel does nothing: remounting before that reply
// (leaving the workspace and coming straight back) would listen on a dead channel. A topic of
// its own per mount never meets the one still leaving.
let mounts = 0

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
      .channel(`workspace-members:${workspaceId}:${(mounts += 1)}`)
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

import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { collectionKeys } from '../api/keys'

const TABLES = ['collections', 'collection_documents'] as const

/**
 * Keeps a workspace's collections and memberships live: any change reads them again (they
 * are small, and a bulk add arrives as a burst, so reads are half a second apart). Inserts
 * and updates are filtered by workspace; deletes cannot be (hosted Realtime), so any delete
 * is heard and the read again answers what is left.
 */
export function useCollectionsRealtime(workspaceId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const refresh = () => {
      timer ??= setTimeout(() => {
        timer = undefined
        void queryClient.invalidateQueries({ queryKey: collectionKeys.list(workspaceId) })
      }, 500)
    }
    const filter = `workspace_id=eq.${workspaceId}`
    let channel = supabase.channel(channelTopic(`collections:${workspaceId}`))
    for (const table of TABLES) {
      channel = channel
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table, filter }, refresh)
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table, filter }, refresh)
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table }, refresh)
    }
    let joined = false
    channel.subscribe((status) => {
      // Changes made while the channel was down are not replayed: read again on rejoining.
      if (status !== 'SUBSCRIBED') return
      if (joined) refresh()
      joined = true
    })
    return () => {
      clearTimeout(timer)
      void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

import { useQueryClient } from '@tanstack/react-query'
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js'
import { useEffect } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { getUploaders, type Library, type LibraryDocument } from '../api/get-documents'
import { libraryKeys } from '../api/keys'
import { patchLibrary } from '../utils/patch-library'

type Row = Record<string, unknown>

/**
 * Keeps the workspace's document list live: inserts and updates (another member's upload
 * progress included) patch the cached list in place. Deletes carry only the id and cannot be
 * filtered by workspace, so they are heard unfiltered and dropped by id. The storage figure is
 * read again after changes, at most every two seconds (progress updates come in bursts).
 */
export function useDocumentsRealtime(workspaceId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    const key = libraryKeys.documents(workspaceId)
    const patch = (change: Parameters<typeof patchLibrary>[1]) =>
      queryClient.setQueryData<Library>(key, (library) => library && patchLibrary(library, change))
    let usageTimer: ReturnType<typeof setTimeout> | undefined
    const refreshUsage = () => {
      usageTimer ??= setTimeout(() => {
        usageTimer = undefined
        void queryClient.invalidateQueries({ queryKey: libraryKeys.storage(workspaceId) })
      }, 2000)
    }

    async function learnUploader(userId: string | null) {
      const known = queryClient.getQueryData<Library>(key)?.uploaders
      if (!userId || !known || userId in known) return
      const names = await getUploaders([userId]).catch(() => ({}))
      queryClient.setQueryData<Library>(key, (library) =>
        library ? { ...library, uploaders: { ...library.uploaders, ...names } } : library,
      )
    }

    function onChange(payload: RealtimePostgresChangesPayload<Row>) {
      refreshUsage()
      if (payload.eventType === 'DELETE') {
        const id = payload.old.id
        if (typeof id === 'string') patch({ deleted: id })
        return
      }
      const row = payload.new as LibraryDocument
      // Hosted Realtime drops the columns of a record too large to send (a long extracted
      // text): then read the list again rather than patch in holes.
      if (payload.errors?.length || typeof row.title !== 'string') {
        void queryClient.invalidateQueries({ queryKey: key })
        return
      }
      patch({ upserted: row })
      void learnUploader(row.created_by)
    }

    let joined = false
    const channel = supabase
      .channel(channelTopic(`library:${workspaceId}`))
      .on(
        'postgres_changes',
        {
          event: 'INSERT',
          schema: 'public',
          table: 'documents',
          filter: `workspace_id=eq.${workspaceId}`,
        },
        onChange,
      )
      .on(
        'postgres_changes',
        {
          event: 'UPDATE',
          schema: 'public',
          table: 'documents',
          filter: `workspace_id=eq.${workspaceId}`,
        },
        onChange,
      )
      .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'documents' }, onChange)
      .subscribe((status) => {
        // Changes made while the channel was down are not replayed: after a reconnection,
        // read the list again.
        if (status !== 'SUBSCRIBED') return
        if (joined) void queryClient.invalidateQueries({ queryKey: key })
        joined = true
      })
    return () => {
      clearTimeout(usageTimer)
      void supabase.removeChannel(channel)
    }
  }, [queryClient, workspaceId])
}

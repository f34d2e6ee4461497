import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { channelTopic } from '@/lib/channel-topic'
import { supabase } from '@/lib/supabase'
import { documentKeys } from '../api/keys'

/**
 * Keeps one document live: processing stages, a rename or a failure elsewhere refetch it, and
 * its deletion turns the page into "not found". Postgres cannot filter delete events (the old
 * row holds only the key), so deletions are matched here.
 */
export function useDocumentRealtime(documentId: string) {
  const queryClient = useQueryClient()
  useEffect(() => {
    const refetch = () =>
      void queryClient.invalidateQueries({ queryKey: documentKeys.detail(documentId) })
    const channel = supabase
      .channel(channelTopic(`document:${documentId}`))
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'documents', filter: `id=eq.${documentId}` },
        refetch,
      )
      .on(
        'postgres_changes',
        { event: 'DELETE', schema: 'public', table: 'documents' },
        (change) => {
          if (change.old?.id === documentId) refetch()
        },
      )
      .subscribe()
    return () => {
      void supabase.removeChannel(channel)
    }
  }, [queryClient, documentId])
}

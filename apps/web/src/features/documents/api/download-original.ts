import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

const BUCKET = 'documents'

/** A short-lived link that downloads the original under its file name. */
export async function originalDownloadUrl(path: string, title: string) {
  const { data, error } = await supabase.storage
    .from(BUCKET)
    .createSignedUrl(path, 60, { download: title })
  if (error) throw error
  return data.signedUrl
}

/** The original's bytes, for the PDF viewer (the bucket is private: no plain URL). */
export function useOriginalBytes(documentId: string, path: string) {
  return useQuery(
    queryOptions({
      queryKey: documentKeys.original(documentId, path),
      queryFn: async () => {
        const { data, error } = await supabase.storage.from(BUCKET).download(path)
        if (error) throw error
        return new Uint8Array(await data.arrayBuffer())
      },
      staleTime: Infinity,
      gcTime: 60_000,
    }),
  )
}

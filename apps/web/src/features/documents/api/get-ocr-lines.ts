import { queryOptions, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { supabase } from '@/lib/supabase'
import { documentKeys } from './keys'

const fraction = z.number().min(0).max(1)

/** The lines OCR placed on each scanned page (boxes as fractions of the page). */
const ocrPages = z.array(
  z.object({
    number: z.number().int().positive(),
    lines: z.array(
      z.object({ text: z.string(), box: z.tuple([fraction, fraction, fraction, fraction]) }),
    ),
  }),
)

export type OcrPageLines = z.infer<typeof ocrPages>[number]

/**
 * A scanned document's OCR line boxes, for highlighting on pages without a text layer. Stored
 * by whoever indexed the document: anything malformed is no boxes, not a broken viewer.
 */
export async function getOcrLines(documentId: string, signal: AbortSignal) {
  const { data, error } = await supabase
    .from('document_texts')
    .select('ocr_lines')
    .eq('document_id', documentId)
    .abortSignal(signal)
    .maybeSingle()
  if (error) throw error
  const parsed = ocrPages.safeParse(data?.ocr_lines ?? [])
  return parsed.success ? parsed.data : []
}

export function useOcrLines(documentId: string, enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: documentKeys.ocrLines(documentId),
      queryFn: ({ signal }) => getOcrLines(documentId, signal),
      enabled,
    }),
  )
}

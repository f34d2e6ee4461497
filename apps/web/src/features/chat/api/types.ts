import { z } from 'zod'
import { documentTypes } from '@/lib/format'

/** A citation snapshot, as stored in messages.citations and sent in the `sources` event. */
export const citationSchema = z.object({
  n: z.number(),
  chunk_id: z.string(),
  document_id: z.string(),
  title: z.string().nullish(),
  // Absent in citations stored before it was kept (their types are read: usePassageTypes).
  document_type: z.enum(documentTypes).optional().catch(undefined),
  page_start: z.number().nullish(),
  page_end: z.number().nullish(),
  char_start: z.number().nullish(),
  char_end: z.number().nullish(),
  quote: z.string().nullish(),
  supported: z.boolean().nullish(),
})

export type Citation = z.infer<typeof citationSchema>

/** Citations from a stored row: anything malformed is left out rather than breaking the page. */
export function parseCitations(value: unknown): Citation[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((item) => {
    const parsed = citationSchema.safeParse(item)
    return parsed.success ? [parsed.data] : []
  })
}

export type MessageStatus = 'streaming' | 'complete' | 'stopped' | 'failed'

export type Message = {
  id: string
  conversation_id: string
  role: 'user' | 'assistant'
  content: string
  citations: Citation[]
  status: MessageStatus
  error: string | null
  model: string | null
  extractive: boolean
  created_by: string | null
  created_at: string
  /** The signed-in person's rating of an answer, if any. */
  feedback: { rating: number; comment: string | null } | null
}

export type Conversation = {
  id: string
  workspace_id: string
  title: string
  visibility: 'private' | 'shared'
  created_by: string
  created_at: string
  updated_at: string
  /** The scope answers come from: these documents and collections, or (both null) everything. */
  document_ids: string[] | null
  collection_ids: string[] | null
}

/** A conversation's scope, as chosen when it starts or changed later. */
export type Scope = { documentIds?: string[]; collectionIds?: string[] }

export const DEFAULT_TITLE = 'New conversation'
/** The composer's limit; the chat function refuses longer questions. */
export const MAX_QUESTION_LENGTH = 4000

import type { SupabaseClient } from '@supabase/supabase-js'
import type { Citation } from '../../../packages/core/src/chat/types.ts'
import { DEPTH, type PageHit } from '../../../packages/core/src/retrieval/page-metrics.ts'
import type { Localbase } from '../../../packages/localbase/src/index.ts'
import { ask } from '../../../supabase/tests/chat-client.ts'
import { accessToken } from './library-workspace.ts'
import type { LibraryQuestion } from './questions.ts'

/** What one question got back: the two rankings, best first, and the offline answer's citations. */
export type Answered = {
  question: LibraryQuestion
  workspace: PageHit[]
  document: PageHit[]
  citations: PageHit[]
}

type SearchRow = Pick<Citation, 'document_id' | 'page_start' | 'page_end'>

type AsHit = (row: SearchRow) => PageHit

/** A result as a hit on its document's file name, which is how questions name documents. */
const hitsOn =
  (fileNames: Map<string, string>): AsHit =>
  (row) => ({
    document: fileNames.get(row.document_id) ?? row.document_id,
    pageStart: row.page_start,
    pageEnd: row.page_end,
  })

/** The top DEPTH results of the search function, over the workspace or some documents. */
async function search(
  supabase: SupabaseClient,
  asHit: AsHit,
  body: { workspace_id: string; query: string; document_ids?: string[] },
): Promise<PageHit[]> {
  const { data, error } = await supabase.functions.invoke<{ results: SearchRow[] }>('search', {
    body: { ...body, limit: DEPTH },
  })
  if (error) {
    const context = (error as { context?: Response }).context
    const detail = context ? await context.text().catch(() => '') : ''
    throw new Error(`search failed: ${error.message} ${detail}`)
  }
  return data!.results.map(asHit)
}

/** Asks the chat function in a conversation of its own; the answer's citations. */
async function chat(
  localbase: Localbase,
  supabase: SupabaseClient,
  workspaceId: string,
  question: LibraryQuestion,
  asHit: AsHit,
): Promise<PageHit[]> {
  const conversation = await supabase
    .from('conversations')
    .insert({ workspace_id: workspaceId, title: `Question ${question.id}` })
    .select('id')
    .single<{ id: string }>()
  if (conversation.error) throw new Error(`a conversation: ${conversation.error.message}`)
  const user = { id: '', email: '', jwt: await accessToken(supabase) }
  const body = { conversation_id: conversation.data.id, content: question.question }
  const reply = await ask(localbase, user, body)
  const done = reply.events.find((e) => e.event === 'done')
  if (!done) {
    const last = reply.body ?? reply.events.at(-1)?.data
    throw new Error(`chat on ${question.id} did not finish: ${JSON.stringify(last)}`)
  }
  return (done.data.message as { citations: Citation[] }).citations.map(asHit)
}

/**
 * Asks every question through the search function, over the whole workspace and then
 * filtered to the question's document, and through the chat function (offline: the
 * citations of an extractive answer).
 */
export async function askLibrary(
  localbase: Localbase,
  supabase: SupabaseClient,
  workspaceId: string,
  /** Ids by file name (readyDocuments). */
  documentIds: Map<string, string>,
  questions: LibraryQuestion[],
  onAnswer: (answered: Answered, index: number) => void,
): Promise<Answered[]> {
  const asHit = hitsOn(new Map([...documentIds].map(([file, id]) => [id, file])))
  const missing = questions.filter((q) => !documentIds.has(q.file)).map((q) => q.file)
  if (missing.length > 0) {
    throw new Error(`not ready documents of the library: ${[...new Set(missing)].join(', ')}`)
  }
  const answers: Answered[] = []
  for (const [i, question] of questions.entries()) {
    const documentId = documentIds.get(question.file)!
    const query = question.question
    const answered = {
      question,
      workspace: await search(supabase, asHit, { workspace_id: workspaceId, query }),
      document: await search(supabase, asHit, {
        workspace_id: workspaceId,
        query,
        document_ids: [documentId],
      }),
      citations: await chat(localbase, supabase, workspaceId, question, asHit),
    }
    answers.push(answered)
    onAnswer(answered, i)
  }
  return answers
}

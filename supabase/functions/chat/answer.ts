import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import { checkCitations } from '../_shared/core/chat/citations.ts'
import { renumberByFirstUse } from '../_shared/core/chat/renumber.ts'
import type { Citation, Source } from '../_shared/core/chat/types.ts'
import { providerErrorMessage } from '../_shared/ai/errors.ts'
import { liveAnswer } from './broadcast.ts'
import { extract, type Generation, generate, pickModel, standaloneQuery } from './generate.ts'
import { judgeCitations } from './judge.ts'
import { RERANK_DEPTH, type Reranker } from '../_shared/ai/rerank.ts'
import { chatReranker, rerankSources } from './rerank.ts'
import { asCitation, comparing, PASSAGES, retrieve } from './retrieve.ts'
import type { EventSink } from './sse.ts'
import { beginTurn, failAbandoned, finishTurn } from './store.ts'
import type { Turn } from './turn.ts'

/** How long the stream's first event has to itself before the turn's queries start. */
const FIRST_BYTE_HEAD_START_MS = 5

/** Milliseconds spent in each step, from the request's arrival; sent with `done`. */
export type Timings = Record<string, number>

/** A failure of our own (search, storage), as opposed to the AI provider's. */
class StepError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const step = async <T>(code: string, run: () => Promise<T>): Promise<T> => {
  try {
    return await run()
  } catch (error) {
    throw new StepError(code, error instanceof Error ? error.message : String(error))
  }
}

const problemOf = (error: unknown) => {
  if (error instanceof StepError) return { code: error.code, message: error.message }
  const { code, message } = providerErrorMessage(error)
  return { code, message }
}

/**
 * One answer, streamed: meta, sources, deltas, then done (or error). The rows are written
 * while the answer is being found; the stored answer ends 'complete', 'stopped' (the client
 * went away: what was streamed is kept) or 'failed' (with the error). Its citations are
 * checked lexically, and by the model as judge where that check doubts them.
 */
export async function runTurn(
  clients: { caller: SupabaseClient; admin: SupabaseClient },
  turn: Turn,
  sink: EventSink,
  stop: AbortSignal,
  clock: { started: number; timings: Timings },
): Promise<void> {
  const mark = (name: string, since: number) =>
    (clock.timings[name] = Math.round(performance.now() - since))
  const ids = {
    userMessageId: turn.regenerate?.userMessageId ?? crypto.randomUUID(),
    assistantMessageId: crypto.randomUUID(),
  }
  const model = pickModel(turn.chatModel)
  const meta = { model: model ? turn.chatModel : null, extractive: model === null }
  sink.send('meta', {
    user_message_id: ids.userMessageId,
    assistant_message_id: ids.assistantMessageId,
    ...meta,
  })
  // The meta event reaches the client before any query of this turn is sent: under localbase
  // one event loop forwards this stream and runs Postgres (PGlite), and a query starting first
  // held the first byte until retrieval ended (bench:chat p50 73 -> 6 ms, p95 163 -> 9 ms).
  await new Promise((resolve) => setTimeout(resolve, FIRST_BYTE_HEAD_START_MS))
  // Written while the answer is found; awaited before the answer is stored.
  const begun = Promise.all([
    beginTurn(clients.admin, turn, ids, meta),
    failAbandoned(clients.admin, turn.conversationId),
  ]).then(
    () => null,
    (error: Error) => error,
  )
  const live = liveAnswer(turn.conversationId, ids.assistantMessageId, ids.userMessageId)

  let content = ''
  let sources: Source[] = []
  let generation: Generation | null = null
  let closest: Citation[] | null = null
  let failure: { code: string; message: string } | null = null
  try {
    let at = performance.now()
    // The reranking setting is read while a follow-up is rewritten; on a first question it is
    // read beside retrieval, so that a workspace that does not rerank waits for no read.
    const chosen: { reranker?: Reranker | null } = {}
    const choosing = chatReranker(clients.caller, turn.workspaceId, turn.chatModel).then(
      (reranker) => (chosen.reranker = reranker),
    )
    const query = await standaloneQuery(model, turn, stop)
    mark('rewrite_ms', at)
    at = performance.now()
    const find = (count: number) =>
      step('search_failed', () =>
        retrieve(
          clients.caller,
          turn.workspaceId,
          turn.embeddingModel,
          query,
          turn.conversationId,
          count,
        ),
      )
    // Whether the conversation compares several documents is read beside retrieval.
    const unchosen = chosen.reranker === undefined
    const [reranker, found, compare] = await Promise.all([
      unchosen ? choosing : chosen.reranker,
      unchosen ? find(PASSAGES) : null,
      step('search_failed', () => comparing(clients.caller, turn.conversationId)),
    ])
    // Reranking chooses among more passages than an answer is given.
    sources = reranker ? await find(RERANK_DEPTH) : (found ?? (await find(PASSAGES)))
    mark('retrieval_ms', at)
    if (reranker) {
      at = performance.now()
      sources = await rerankSources(clients.caller, reranker, query, sources, PASSAGES)
      mark('rerank_ms', at)
    }
    at = performance.now()
    if (model) generation = generate(model, turn, sources, stop, compare)
    else ({ generation, sources, closest } = extract(turn.question, sources, compare))
    mark('prompt_ms', at)
    sink.send('sources', { sources: sources.map(asCitation) })
    at = performance.now()
    for await (const text of generation.deltas) {
      // Stopped before this delta: the asker saw none of it, so none of it is kept.
      if (stop.aborted) break
      if (!content) {
        mark('provider_ms', at)
        mark('first_delta_ms', clock.started)
      }
      content += text
      sink.send('delta', { text })
      live.delta(text)
    }
  } catch (error) {
    if (!stop.aborted) failure = problemOf(error)
  }

  const notStored = await begun
  try {
    if (notStored) throw new StepError('chat_failed', notStored.message)
    const status = failure ? 'failed' : stop.aborted ? 'stopped' : 'complete'
    // Numbered in the order the answer first cites them, as the sources panel lists them.
    const numbered = renumberByFirstUse(content, sources)
    content = numbered.answer
    const checked = checkCitations(content, numbered.sources)
    const citations =
      closest && status === 'complete'
        ? closest
        : model && status === 'complete'
          ? await judgeCitations(model, checked.citations, checked.doubts, stop)
          : checked.citations
    const usage = generation?.usage() ?? null
    const error = failure?.message ?? null
    const message = await step('chat_failed', () =>
      finishTurn(clients.admin, ids.assistantMessageId, {
        content,
        citations,
        status,
        error,
        usage,
      }),
    )
    mark('total_ms', clock.started)
    if (failure) sink.send('error', failure)
    else sink.send('done', { message, timings: clock.timings })
  } catch (error) {
    sink.send('error', problemOf(error))
  }
  await live.done()
  sink.close()
}

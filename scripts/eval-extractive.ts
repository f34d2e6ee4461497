/**
 * Offline (extractive) answers on SciFact: do they cite the sentences that matter?
 *
 * The SciFact corpus goes into a fresh localbase; each test claim with evidence is asked
 * through the real `chat` Edge Function with no AI provider, in a conversation of its own.
 * A claim is a hit when some quote the answer cites overlaps a rationale sentence of one of
 * the claim's evidence abstracts: the quote's span in the document and the rationale
 * sentence's span share at least half of the shorter of the two. Rationale sentences are
 * numbered as SciFact numbers them; the abstract (BEIR joins its sentences with spaces) is
 * split back into sentences with the chat's own splitter, and claims whose rationale index
 * falls beyond that split are reported apart.
 *
 *   node scripts/eval-extractive.ts [--dataset ../shared/data/scifact] [--limit 200]
 *
 * Prints the rates, then one JSON line.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parseCitations } from '../packages/core/src/chat/citations.ts'
import { splitSentences } from '../packages/core/src/chat/sentences.ts'
import type { Citation } from '../packages/core/src/chat/types.ts'
import { percentile } from '../packages/core/src/retrieval/metrics.ts'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { ask } from '../supabase/tests/chat-client.ts'
import { type CorpusEntry, loadBeir } from './eval/beir.ts'
import { signInConfirmedUser } from './eval/confirmed-user.ts'
import { loadCorpus } from './eval/load-corpus.ts'

type Claim = {
  id: string
  claim: string
  evidence: Record<string, { label: string; sentences: number[][] }>
}
type Span = { start: number; end: number }

const workdir = new URL('..', import.meta.url).pathname
const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: join(workdir, '../shared/data/scifact') },
    limit: { type: 'string', default: '200' },
  },
})
const folder = resolve(values.dataset)
const claims = readFileSync(join(folder, 'claims_test_with_rationales.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Claim)
  .filter((c) => Object.keys(c.evidence).length > 0)
  .slice(0, Number(values.limit))
const { corpus } = loadBeir(folder, 'test')
const entryOf = new Map(corpus.map((e) => [e.id, e]))

/** The document text as loadCorpus stores it, and where the abstract starts in it. */
const documentText = (e: CorpusEntry) => (e.title ? `${e.title}\n\n${e.text}` : e.text)
const abstractOffset = (e: CorpusEntry) => (e.title ? e.title.length + 2 : 0)

/** The spans of a claim's rationale sentences in each evidence document's text. */
function rationales(claim: Claim): { spans: Map<string, Span[]>; aligned: boolean } {
  const spans = new Map<string, Span[]>()
  let aligned = true
  for (const [corpusId, { sentences }] of Object.entries(claim.evidence)) {
    const entry = entryOf.get(corpusId)!
    const split = splitSentences(entry.text)
    const offset = abstractOffset(entry)
    const wanted = sentences.flat()
    if (wanted.some((i) => i >= split.length)) aligned = false
    spans.set(
      corpusId,
      wanted
        .filter((i) => i < split.length)
        .map((i) => ({ start: offset + split[i]!.start, end: offset + split[i]!.end })),
    )
  }
  return { spans, aligned }
}

/** Where each sentence of a citation's quote sits in its document. */
function quoteSpans(citation: Citation, text: string): Span[] {
  const from = Math.max(0, (citation.char_start ?? 0) - 1)
  return citation.quote.split(' … ').flatMap((piece) => {
    const at = text.indexOf(piece, from)
    return at < 0 ? [] : [{ start: at, end: at + piece.length }]
  })
}

const overlaps = (a: Span, b: Span) => {
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start)
  return shared > 0 && shared >= 0.5 * Math.min(a.end - a.start, b.end - b.start)
}

const dataDir = mkdtempSync(join(tmpdir(), 'sourcebook-eval-extractive-'))
const lb = await startLocalbase({
  workdir,
  port: 0,
  dataDir,
  // No AI provider: the answers are extractive. Many questions a minute from one user.
  env: {
    ...process.env,
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    OPENAI_COMPATIBLE_BASE_URL: '',
    CHAT_RATE_LIMIT_PER_MINUTE: '100000',
  },
})
try {
  const { supabase, session } = await signInConfirmedUser(
    lb.url,
    `eval.${Date.now()}@example.test`,
    'eval-password-1234',
  )
  const user = { id: session.user.id, email: session.user.email!, jwt: session.access_token }
  const workspace = await supabase.from('workspaces').insert({ name: 'Eval' }).select('id').single()
  if (workspace.error) throw new Error(workspace.error.message)
  const workspaceId = (workspace.data as { id: string }).id
  const corpusIdOf = await loadCorpus(supabase, workspaceId, corpus)
  console.log(`\nloaded ${corpus.length} abstracts; asking ${claims.length} claims with evidence`)

  let hits = 0
  let documentHits = 0
  let unaligned = 0
  let citationCount = 0
  let supported = 0
  let answered = 0
  const latencies: number[] = []
  for (const [i, claim] of claims.entries()) {
    const conversation = await supabase
      .from('conversations')
      .insert({ workspace_id: workspaceId, title: `Claim ${claim.id}` })
      .select('id')
      .single()
    if (conversation.error) throw new Error(conversation.error.message)
    const body = { conversation_id: (conversation.data as { id: string }).id, content: claim.claim }
    const started = performance.now()
    // Localbase restarts a function whose files change, dropping its open streams: ask again.
    const reply = await ask(lb, user, body).catch(() => ask(lb, user, body))
    latencies.push(performance.now() - started)
    const done = reply.events.find((e) => e.event === 'done')
    if (!done) throw new Error(`claim ${claim.id}: ${JSON.stringify(reply.events.at(-1) ?? reply)}`)
    // Only what the answer cites counts: a no-answer's closest passages are shown, not cited.
    const message = done.data.message as { content: string; citations: Citation[] }
    const used = new Set(parseCitations(message.content))
    const citations = message.citations.filter((c) => used.has(c.n))
    if (citations.length > 0) answered++
    citationCount += citations.length
    supported += citations.filter((c) => c.supported).length

    const { spans, aligned } = rationales(claim)
    if (!aligned) unaligned++
    let hit = false
    let onEvidence = false
    for (const citation of citations) {
      const corpusId = corpusIdOf.get(citation.document_id)!
      const wanted = spans.get(corpusId)
      if (!wanted) continue
      onEvidence = true
      const text = documentText(entryOf.get(corpusId)!)
      if (quoteSpans(citation, text).some((q) => wanted.some((r) => overlaps(q, r)))) hit = true
    }
    if (hit) hits++
    if (onEvidence) documentHits++
    process.stderr.write(`\rasked ${i + 1}/${claims.length}`)
  }

  const rate = (n: number) => `${((100 * n) / claims.length).toFixed(1)}%`
  console.log(`\n\nSciFact test claims with evidence: ${claims.length}`)
  console.log(
    `answers citing a rationale sentence of an evidence abstract: ${hits} (${rate(hits)})`,
  )
  console.log(
    `answers citing an evidence abstract at all:                 ${documentHits} (${rate(documentHits)})`,
  )
  console.log(
    `answers with at least one citation:                          ${answered} (${rate(answered)})`,
  )
  console.log(`citations the lexical check marks supported: ${supported}/${citationCount}`)
  console.log(`claims whose rationale index lies beyond our sentence split: ${unaligned}`)
  console.log(
    `offline turn, request to end of stream: p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms`,
  )
  console.log(
    JSON.stringify({
      claims: claims.length,
      rationale_hit_rate: hits / claims.length,
      evidence_document_rate: documentHits / claims.length,
      answered_rate: answered / claims.length,
      supported_citations: supported / Math.max(1, citationCount),
      unaligned,
      p50_ms: percentile(latencies, 0.5),
      p95_ms: percentile(latencies, 0.95),
    }),
  )
} finally {
  await lb.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

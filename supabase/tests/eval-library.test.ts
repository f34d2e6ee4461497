import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processFile } from '../../packages/core/src/ingest/process-file.ts'
import { buildPdf } from '../../packages/core/src/testing/build-pdf.ts'

// npm run eval:library end to end on a small hand-made library: nine PDFs in two folders,
// five questions whose ranks, and so every number of the run, are worked out below.
const script = fileURLToPath(new URL('../../scripts/eval-library.ts', import.meta.url))
const root = mkdtempSync(join(tmpdir(), 'sourcebook-eval-library-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// A page of 40 lines of clerical filler (no word of any question) around one line of its
// own, about 560 tokens: the chunker's 400-token passages put each middle line in passages
// lying on its page alone (the first test checks it), so the ranks below follow from BM25.
const filler = (from: number) =>
  Array.from(
    { length: 20 },
    (_, i) => `Entry ${from + i} of the register was copied into the daybook by the clerk.`,
  )
const pdf = (...middles: string[]) =>
  buildPdf({
    pages: middles.map((middle, p) =>
      [...filler(100 * p), middle, ...filler(100 * p + 50)].join('\n'),
    ),
  })

const paged: Record<string, string[]> = {
  'a/harbour-2019.pdf': [
    'The lighthouse lamps were cleaned every spring.',
    'Harbour dues for fishing boats rose to twelve crowns a season after the storm.',
    'The breakwater was repaired with granite.',
  ],
  'a/orchard.pdf': [
    'Apple trees were pruned in winter.',
    'Pears ripened in October and were stored in straw.',
  ],
  'b/harbour-2020.pdf': [
    'The lighthouse keeper retired after forty years.',
    'Harbour dues for fishing boats fell; dues for fishing boats and ferries were halved.',
    'Gulls nested on the old breakwater.',
  ],
}
const library: Record<string, Uint8Array> = {
  ...Object.fromEntries(Object.entries(paged).map(([name, middles]) => [name, pdf(...middles)])),
  // Six one-line, one-passage notes saying more about gulls than harbour-2020 does.
  ...Object.fromEntries(
    Array.from({ length: 6 }, (_, i) => [
      `b/gulls-${i + 1}.pdf`,
      buildPdf({ pages: [`Note ${i + 1}: gulls nested on cliffs and gulls nested on roofs.`] }),
    ]),
  ),
}

// Ranks of the first passage on an evidence page (whole workspace / filtered), and whether
// the offline answer (the best sentences of the top 5 passages) cites an evidence page:
const questions = [
  // dues, fishing, boats weigh twice in harbour-2020's page 2, which comes first: 2 / 1. The
  // answer quotes both pages 2: cites.
  {
    id: 'q1',
    file: 'harbour-2019.pdf',
    question: 'What were the harbour dues for fishing boats?',
    pages: [2],
  },
  // Only harbour-2019's page 3 holds both words: 1 / 1, cites.
  {
    id: 'q2',
    file: 'harbour-2019.pdf',
    question: 'What was the breakwater repaired with?',
    pages: [3],
  },
  // The right document but not the page (pears are on page 2): - / -, its document is
  // first (a document hit), and the answer cites page 2: misses.
  { id: 'q3', file: 'orchard.pdf', question: 'When did the pears ripen?', pages: [1] },
  // Both lighthouse pages match, the one saying "retired" first: 1 / 1, cites.
  { id: 'q4', file: 'harbour-2020.pdf', question: 'Who retired from the lighthouse?', pages: [1] },
  // The six gulls notes come first: 7 / 1, no document hit in the top 5, and the answer
  // draws on the notes only: misses.
  { id: 'q5', file: 'harbour-2020.pdf', question: 'Where did the gulls nest?', pages: [3] },
]

// Whole workspace, ranks 2, 1, -, 1, 7: recall@5 3/5, @10 and @20 4/5, MRR (1/2 + 1 + 0 +
// 1 + 1/7) / 5, document hit@5 4/5. Filtered, ranks 1, 1, -, 1, 1: recall 4/5, MRR 4/5.
// Answers citing evidence: q1, q2, q4, 3/5.
const expected = {
  questions: 5,
  workspace: { recall5: 0.6, recall10: 0.8, recall20: 0.8, mrr: 0.5286, document_hit5: 0.8 },
  document: { recall5: 0.8, recall10: 0.8, recall20: 0.8, mrr: 0.8 },
  chat_citing_evidence: 0.6,
  documents: 9,
}

const questionsPath = join(root, 'questions.jsonl')
const dataDir = join(root, 'db')

beforeAll(() => {
  for (const [name, bytes] of Object.entries(library)) {
    mkdirSync(join(root, name, '..'), { recursive: true })
    writeFileSync(join(root, name), bytes)
  }
  const lines = questions.map(({ pages, ...q }) =>
    JSON.stringify({ ...q, evidence: pages.map((page) => ({ page, text: '' })) }),
  )
  writeFileSync(questionsPath, `${lines.join('\n')}\n`)
})

function evalLibrary(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [script, ...args])
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (data) => (stdout += data))
    child.stderr.on('data', (data) => (stderr += data))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!)
const folders = () => [join(root, 'a'), join(root, 'b')]

describe('npm run eval:library', () => {
  it('works on a library laid out as the numbers assume', async () => {
    // The pages of the passages holding each middle line, as the importer chunks them.
    const layout = async (name: string) => {
      const { chunks } = await processFile({ bytes: library[name]!, fileName: name })
      return paged[name]!.map((line) =>
        chunks.filter((c) => c.content.includes(line)).map((c) => `${c.pageStart}-${c.pageEnd}`),
      )
    }
    expect(await layout('a/harbour-2019.pdf')).toEqual([['1-1'], ['2-2'], ['3-3']])
    expect(await layout('b/harbour-2020.pdf')).toEqual([['1-1'], ['2-2'], ['3-3']])
    // Overlapping passages repeat a line; the pears only ever on page 2.
    expect(await layout('a/orchard.pdf')).toEqual([
      ['1-1', '1-2'],
      ['2-2', '2-2'],
    ])
  })

  it('imports the folders, asks every question and prints the numbers worked out by hand', async () => {
    const run = await evalLibrary([
      '--questions',
      questionsPath,
      '--data-dir',
      dataDir,
      '--verbose',
      ...folders(),
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/Imported 9 of 9 files in [\d.]+ s: 14 pages/)
    expect(lastJson(run.stdout)).toMatchObject({ ...expected, imported: 9 })
    // Per question: the ranks, the answer's verdict and the workspace's top 5 (* on evidence).
    expect(run.stdout).toContain(
      'q1 harbour-2019.pdf p2\n  rank workspace 2, document 1, chat cites evidence\n' +
        '  top 5: harbour-2020.pdf p2 | *harbour-2019.pdf p2\n',
    )
    expect(run.stdout).toContain('q3 orchard.pdf p1\n  rank workspace -, document -, chat misses')
    expect(run.stdout).toMatch(
      /q5 harbour-2020\.pdf p3\n {2}rank workspace 7, document 1, chat misses\n {2}top 5: (gulls-\d\.pdf p1( \| |\n)){5}/,
    )
    expect(run.stdout).toMatch(/whole workspace +0\.600 +0\.800 +0\.800 +0\.529 +0\.800/)
    expect(run.stdout).toMatch(/filtered to document +0\.800 +0\.800 +0\.800 +0\.800 +—/)
    expect(run.stdout).toContain('offline chat answers citing an evidence page: 0.600')
  }, 300_000)

  it('reuses a kept data dir: nothing is imported again, the numbers are the same', async () => {
    const run = await evalLibrary([
      '--questions',
      questionsPath,
      '--data-dir',
      dataDir,
      ...folders(),
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`reusing the library workspace in ${dataDir}`)
    expect(run.stdout).toMatch(/Imported 0 of 9 files[^\n]*\n {2}duplicates: 9/)
    expect(lastJson(run.stdout)).toMatchObject({ ...expected, imported: 0 })
  }, 300_000)

  it('refuses a kept data dir another import pipeline filled, naming what changed', async () => {
    const stampFile = join(dataDir, 'sourcebook-library-pipeline.json')
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Record<string, string>
    const chunker = 'packages/core/src/chunk/chunk-document.ts'
    expect(Object.keys(stamp)).toContain(chunker)
    try {
      // As if the chunker had changed since the import.
      writeFileSync(stampFile, JSON.stringify({ ...stamp, [chunker]: 'an older version' }))
      const run = await evalLibrary([
        '--questions',
        questionsPath,
        '--data-dir',
        dataDir,
        ...folders(),
      ])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`imported by another import pipeline (changed: ${chunker})`)
      expect(run.stdout).not.toMatch(/whole workspace/)
    } finally {
      writeFileSync(stampFile, JSON.stringify(stamp))
    }
  }, 300_000)

  it('fails, asking nothing, when a question is about a file the library lacks', async () => {
    const missing = join(root, 'missing.jsonl')
    const question = { id: 'm', file: 'atlas.pdf', question: 'Where?', evidence: [{ page: 1 }] }
    writeFileSync(missing, `${JSON.stringify(question)}\n`)
    const run = await evalLibrary(['--questions', missing, '--data-dir', dataDir, ...folders()])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      'eval:library failed: not ready documents of the library: atlas.pdf',
    )
    expect(run.stdout).not.toMatch(/whole workspace/)
  }, 300_000)

  it('exits 2 on bad usage, and refuses a malformed question with its line', async () => {
    const usage = await evalLibrary(folders())
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--questions and at least one folder are needed/)
    const bad = join(root, 'bad.jsonl')
    writeFileSync(
      bad,
      '{"id": "x", "file": "orchard.pdf", "question": "Pears?", "evidence": [{"page": 0}]}\n',
    )
    const refused = await evalLibrary(['--questions', bad, ...folders()])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`${bad}:1: expected {id, file, question, evidence: [{page}]}`)
  })
})

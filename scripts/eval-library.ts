/**
 * Page-level retrieval on a library of long documents, end to end: the folders go through
 * the importer's pipeline into a localbase workspace, then every question is asked through
 * the `search` Edge Function (over the whole workspace, then filtered to its document) and
 * through the `chat` function with no AI provider (an extractive, cited answer).
 *
 *   npm run eval:library -- --questions <questions.jsonl> [--data-dir DIR] [--verbose] [--explain]
 *     <folder>…
 *
 * Questions are JSONL `{id, file, question, evidence: [{page, text}]}`, `file` a file's name
 * in the folders and pages 1-based. A result hits when it comes from the question's file and
 * its page range holds an evidence page (see page-metrics.ts). With --data-dir the database
 * is kept there and reused: files already imported are skipped as duplicates, and a data dir
 * another version of the import pipeline filled is refused (pipeline-stamp.ts). With --explain,
 * each question whose evidence page is not in its document's top 20 is searched again deeper:
 * the evidence's rank and score, and the pages above it.
 *
 * Prints the import summary and a table (per-question lines with --verbose) on stdout, then
 * one JSON line with every number. Exits 2 on bad usage or a malformed questions file, 1 when
 * a step fails (a question's file not among the ready documents, say).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startLocalbase } from '../packages/localbase/src/index.ts'
import { askLibrary } from './eval/library/ask-library.ts'
import { explainMisses } from './eval/library/explain-misses.ts'
import { importLibrary, readyDocuments } from './eval/library/import-library.ts'
import { type LibraryWorkspace, openLibraryWorkspace } from './eval/library/library-workspace.ts'
import { stampPipeline } from './eval/library/pipeline-stamp.ts'
import { readQuestions } from './eval/library/questions.ts'
import { libraryScores, questionLine, scoreTable } from './eval/library/report.ts'
import { summary } from './import/report.ts'

const usage =
  'usage: npm run eval:library -- --questions <questions.jsonl> [--data-dir DIR] [--verbose] [--explain] <folder>…'
const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        questions: { type: 'string' },
        'data-dir': { type: 'string' },
        verbose: { type: 'boolean', default: false },
        explain: { type: 'boolean', default: false },
      },
    })
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
})()
if (!values.questions || positionals.length === 0) {
  console.error(`--questions and at least one folder are needed\n${usage}`)
  process.exit(2)
}

const questions = (() => {
  try {
    return readQuestions(resolve(values.questions!))
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
})()
const kept = values['data-dir'] !== undefined
const dataDir = kept ? resolve(values['data-dir']!) : mkdtempSync(join(tmpdir(), 'sourcebook-lib-'))
const workdir = new URL('..', import.meta.url).pathname
const localbase = await startLocalbase({
  workdir,
  port: 0,
  dataDir,
  // No AI provider, so answers are extractive and search is lexical; every question asked
  // within a minute by one user.
  env: {
    ...process.env,
    PORT: '',
    HOST: '',
    DATA_DIR: '',
    OPENAI_API_KEY: '',
    ANTHROPIC_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    OPENAI_COMPATIBLE_BASE_URL: '',
    CHAT_RATE_LIMIT_PER_MINUTE: '100000',
  },
})
let workspace: LibraryWorkspace | undefined
try {
  workspace = await openLibraryWorkspace(localbase)
  const { supabase, workspaceId, reused } = workspace
  console.log(`${reused ? 'reusing' : 'created'} the library workspace in ${dataDir}`)
  stampPipeline(dataDir, workdir, reused)
  const folders = positionals.map((folder) => resolve(folder))
  const imported = await importLibrary(supabase, workspaceId, folders, (line) =>
    console.error(line),
  )
  console.log(summary(imported.totals, [], imported.seconds * 1000))
  const documentIds = await readyDocuments(supabase, workspaceId)

  const started = performance.now()
  const answers = await askLibrary(
    localbase,
    supabase,
    workspaceId,
    documentIds,
    questions,
    (answered, i) => {
      if (values.verbose) console.log(questionLine(answered))
      else console.error(`asked ${i + 1}/${questions.length}`)
    },
  )
  const askSeconds = (performance.now() - started) / 1000

  if (values.explain) {
    console.log('\nWhy the document searches missed:')
    for (const line of await explainMisses(supabase, workspaceId, documentIds, answers))
      console.log(line)
  }

  const scores = libraryScores(answers)
  console.log(`\n${scoreTable(scores)}`)
  console.log(
    JSON.stringify({
      ...scores,
      documents: documentIds.size,
      imported: imported.totals.ready,
      import_seconds: Math.round(imported.seconds * 10) / 10,
      ask_seconds: Math.round(askSeconds * 10) / 10,
    }),
  )
} catch (error) {
  console.error(`eval:library failed: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  // The session's refresh timer would keep the process alive.
  workspace?.supabase.auth.stopAutoRefresh()
  await localbase.stop()
  if (!kept) rmSync(dataDir, { recursive: true, force: true })
}

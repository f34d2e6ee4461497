/**
 * How much of the PDFs' text is unreadable: U+FFFD (the stand-in for glyphs whose font maps
 * them to nothing, and for NULs Postgres cannot store) per 100,000 characters of the text
 * Sourcebook stores, per file and overall, over the financebench filings and distractors.
 * Each PDF goes through the real extractor and the ingest repair (extractText).
 *
 *   node scripts/eval-text.ts [--data ../shared/data] [--dump folder]
 *
 * --dump writes each file's raw extracted text (before any repair) there, to study the damage.
 * Prints one line a file, then the overall rate and one JSON line.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { extractDocument } from '../packages/core/src/extract/extract-document.ts'
import { readableText } from '../packages/core/src/ingest/process-file.ts'

const { values } = parseArgs({
  options: { data: { type: 'string', default: '../shared/data' }, dump: { type: 'string' } },
})
const folders = ['financebench-pdfs', 'financebench-distractors'].map((f) =>
  resolve(values.data!, f),
)
if (values.dump) mkdirSync(values.dump, { recursive: true })

const replacements = (text: string) => text.match(/\uFFFD/g)?.length ?? 0
const per100k = (count: number, chars: number) => (chars === 0 ? 0 : (count * 100_000) / chars)

let characters = 0
let unreadable = 0
const files: { file: string; characters: number; fffd: number; per100k: number }[] = []
for (const folder of folders) {
  for (const file of readdirSync(folder)
    .filter((name) => name.endsWith('.pdf'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(join(folder, file)))
    const doc = await extractDocument({ bytes, fileName: file })
    if (values.dump) writeFileSync(join(values.dump, `${file}.txt`), doc.text)
    const { text } = readableText(doc)
    const fffd = replacements(text)
    characters += text.length
    unreadable += fffd
    const rate = per100k(fffd, text.length)
    files.push({ file, characters: text.length, fffd, per100k: Number(rate.toFixed(2)) })
    console.log(
      `${file.padEnd(44)} ${String(text.length).padStart(9)} chars ${String(fffd).padStart(6)} U+FFFD ${rate.toFixed(2).padStart(8)} /100k`,
    )
  }
}
const overall = per100k(unreadable, characters)
console.log(
  `overall: ${unreadable} U+FFFD in ${characters} characters, ${overall.toFixed(2)} /100k`,
)
console.log(
  JSON.stringify({
    eval: 'text',
    files: files.length,
    characters,
    fffd: unreadable,
    per100k: Number(overall.toFixed(2)),
    perFile: files,
  }),
)

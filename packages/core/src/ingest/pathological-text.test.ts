import { describe, expect, it } from 'vitest'
import { processFile } from './process-file.ts'

// Each of these took from minutes to hours before token counting cut long runs of alike
// characters (BPE is quadratic in a pre-token's length): the per-test timeout is the failure.
const TIMEOUT = 30_000
const MB2 = 2_000_000

const inputs: [string, string, string][] = [
  ['2 MB of spaces between two words', 'spaces.txt', `Start ${' '.repeat(MB2)} End.`],
  ['2 MB of mixed whitespace', 'mixed.txt', `Start ${' \t\r\n'.repeat(MB2 / 4)} End.`],
  ['one 2 MB line with no spaces', 'line.txt', 'a'.repeat(MB2)],
  ['100k empty lines', 'empty-lines.txt', `Start${'\n'.repeat(100_000)}End.`],
  ['a 2 MB run of punctuation', 'rule.txt', `Start ${'-'.repeat(MB2)} End.`],
  ['1 MB of emoji without spaces', 'emoji.txt', '😀'.repeat(MB2 / 4)],
  ['2 MB of CJK without spaces', 'cjk.txt', '漢'.repeat(MB2)],
  [
    'a 20,000-row Markdown table',
    'table.md',
    `| id | name | note |\n|---|---|---|\n${Array.from({ length: 20_000 }, (_, i) => `| ${i} | row ${i} | A note. |`).join('\n')}`,
  ],
  [
    'a list nested 2,000 deep',
    'nested.md',
    Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i * 2)}- item ${i}`).join('\n'),
  ],
  [
    'a Markdown file with 2 MB of blank lines',
    'blank.md',
    `# Title\n\nStart${'\n'.repeat(MB2)}End.`,
  ],
]

describe('processFile on pathological text', () => {
  it.each(inputs)(
    'chunks %s in seconds',
    async (_name, fileName, text) => {
      const { text: stored, chunks } = await processFile({
        bytes: new TextEncoder().encode(text),
        fileName,
      })
      expect(chunks.length).toBeGreaterThan(0)
      for (const chunk of chunks) {
        expect(stored.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.content)
        // The budget of 400 counts a table's cells; its pipes may double that, no more.
        expect(chunk.tokenCount).toBeLessThanOrEqual(800)
      }
      // Nothing but whitespace falls between chunks.
      const covered = chunks.map((c) => c.content).join('')
      expect(covered.replace(/\s/g, '').length).toBeGreaterThanOrEqual(
        stored.replace(/\s/g, '').length,
      )
    },
    TIMEOUT,
  )
})

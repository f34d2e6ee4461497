import { describe, expect, it } from 'vitest'
import { chunkDocument } from '../chunk/chunk-document.ts'
import { extractDocument } from '../extract/extract-document.ts'
import { checkCitations } from './citations.ts'
import { extractiveAnswer } from './extractive.ts'
import { source } from './test-sources.ts'

const csv = [
  'vendor,owner,note',
  'Acme Supplies,Ada Lovelace,Paid in full. Next review in May',
  'Beta Freight,Bob Stone,Contract renewal due. Owner on leave',
  'Core Metals,Cy Young,Invoices overdue. Escalated to finance',
].join('\n')

describe('offline answers from a CSV', () => {
  it('quote whole records: never one vendor next to another vendor’s owner', async () => {
    const doc = await extractDocument({
      bytes: new TextEncoder().encode(csv),
      fileName: 'vendors.csv',
    })
    const sources = chunkDocument(doc).map((chunk, i) =>
      source(i + 1, chunk.content, chunk.charStart),
    )
    const answer = extractiveAnswer('Who is the owner of Beta Freight?', sources)
    expect(answer).toContain('vendor: Beta Freight; owner: Bob Stone')
    const records = doc.text.split('\n\n')
    for (const { quote } of checkCitations(answer, sources).citations) {
      for (const piece of quote.split(' … ')) expect(records).toContain(piece)
    }
  })
})

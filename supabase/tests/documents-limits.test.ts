import { describe, expect, it } from 'vitest'
import { ingestFile } from '../../packages/core/src/ingest/ingest-file.ts'
import { buildPdf } from '../../packages/core/src/testing/build-pdf.ts'
import { buildZip } from '../../packages/core/src/testing/build-zip.ts'
import { readShared, startIngestWorld, textFile } from './ingest-helpers.ts'
import { clientFor } from './stack.ts'

const { stack, db, people, workspaceId, editor } = await startIngestWorld()
const realPdf = readShared('financebench-pdfs/AMCOR_2022_8K_dated-2022-07-01.pdf')

/** Every row and object of the workspace, to show that a refusal wrote nothing. */
async function snapshot() {
  return {
    documents: await db.rows('select id, status from public.documents order by id'),
    objects: await db.objectCount(''),
  }
}

/** What the workspace stores: the figure the quota and the library go by. */
async function usedBytes(): Promise<number> {
  const [row] = await db.rows<{ used: string }>(
    'select used_bytes::text as used from public.workspace_storage where workspace_id = $1',
    [workspaceId],
  )
  return Number(row!.used)
}

async function setQuota(bytes: number) {
  await db.rows('update public.workspaces set storage_quota_bytes = $2 where id = $1', [
    workspaceId,
    bytes,
  ])
}

describe('files refused before anything is written', () => {
  const cases: { name: string; fileName: string; bytes: Uint8Array; error: RegExp }[] = [
    {
      name: 'empty',
      fileName: 'empty.pdf',
      bytes: new Uint8Array(),
      error: /"empty.pdf" is empty/,
    },
    {
      name: 'an unsupported extension, even of text',
      fileName: 'script.py',
      bytes: textFile('print hello'),
      error:
        /\.py files are not supported\. Sourcebook reads PDF, Word \(\.docx\), PowerPoint \(\.pptx\), Excel/,
    },
    {
      name: 'a Word document named as a spreadsheet',
      fileName: 'book.xlsx',
      bytes: buildZip([{ name: 'word/document.xml', data: new Uint8Array(3) }]),
      error: /named as an Excel workbook but its content is a Word document/,
    },
    {
      name: 'a text file named .pdf',
      fileName: 'notes.pdf',
      bytes: textFile('just some notes'),
      error: /named as a PDF but its content is plain text/,
    },
    {
      name: 'a PNG named .pdf',
      fileName: 'scan.pdf',
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0]),
      error: /named as a PDF but its content is a PNG image/,
    },
    {
      name: 'binary garbage without an extension',
      fileName: 'blob',
      bytes: new Uint8Array(5000).map((_, i) => (i * 2654435761) >>> 24),
      error: /binary data, not text/,
    },
  ]
  for (const { name, fileName, bytes, error } of cases) {
    it(name, async () => {
      const before = await snapshot()
      const result = await ingestFile(editor(), { workspaceId, bytes, fileName })
      expect(result).toEqual({ status: 'refused', error: expect.stringMatching(error) })
      expect(await snapshot()).toEqual(before)
    })
  }

  it('a file over the size limit (100 MB by default, configurable)', async () => {
    const before = await snapshot()
    const big = new Uint8Array(100 * 2 ** 20 + 1).fill(65)
    expect(await ingestFile(editor(), { workspaceId, bytes: big, fileName: 'big.txt' })).toEqual({
      status: 'refused',
      error: '"big.txt" is larger than 100 MB.',
    })
    const small = await ingestFile(
      editor(),
      { workspaceId, bytes: realPdf, fileName: 'amcor.pdf' },
      { maxBytes: 100 * 1024 },
    )
    expect(small).toEqual({ status: 'refused', error: '"amcor.pdf" is larger than 100 KB.' })
    expect(await snapshot()).toEqual(before)
  })
})

describe('the workspace storage quota', () => {
  it('refuses a file that would take the workspace over its quota, saying why', async () => {
    const first = await ingestFile(editor(), {
      workspaceId,
      bytes: textFile('Minutes of the harbour board'),
      fileName: 'minutes.txt',
    })
    expect(first.status).toBe('ready')
    const used = await usedBytes()
    const file = textFile('Minutes of the lighthouse board')
    await setQuota(used + file.length - 1)
    try {
      const before = await snapshot()
      const result = await ingestFile(editor(), { workspaceId, bytes: file, fileName: 'more.txt' })
      expect(result).toEqual({
        status: 'refused',
        error: expect.stringMatching(
          /^This workspace's storage is full: "more.txt" needs \d+ bytes, and \d+ (bytes|kB) of its \d+ (bytes|kB) are used\.$/,
        ),
      })
      expect(await snapshot()).toEqual(before)

      // The database refuses it whatever the client checks: errcode QUOTA, HTTP 400. (The
      // bytes themselves are refused by Storage: storage-quota.test.ts.)
      const direct = await editor()
        .from('documents')
        .insert({ workspace_id: workspaceId, title: 'direct', size_bytes: file.length })
      expect(direct).toMatchObject({ status: 400, error: { code: 'QUOTA' } })
    } finally {
      await setQuota(2 ** 30)
    }
  })

  it('a new version needs room beside the current one, whose bytes go at the swap', async () => {
    const current = textFile('Tide tables for the estuary')
    const first = await ingestFile(editor(), { workspaceId, bytes: current, fileName: 'tides.txt' })
    if (first.status !== 'ready') throw new Error(JSON.stringify(first))
    const used = await usedBytes()
    const next = textFile('Tide tables for the estuary, corrected')
    const replace = () =>
      ingestFile(
        editor(),
        { workspaceId, bytes: next, fileName: 'tides-2.txt' },
        { replacesId: first.documentId },
      )
    // Both versions are stored until the swap, so both count.
    await setQuota(used + next.length - 1)
    try {
      const before = await snapshot()
      expect(await replace()).toMatchObject({
        status: 'refused',
        error: expect.stringMatching(/full/),
      })
      expect(await snapshot()).toEqual(before)
      await setQuota(used + next.length)
      expect(await replace()).toMatchObject({ status: 'ready' })
      expect(await usedBytes()).toBe(used - current.length + next.length)
    } finally {
      await setQuota(2 ** 30)
    }
  })

  it('members cannot raise their own quota', async () => {
    const owner = clientFor(stack, people.owner)
    const { error } = await owner
      .from('workspaces')
      .update({ storage_quota_bytes: 10 ** 12 })
      .eq('id', workspaceId)
    expect(error).toMatchObject({ code: '42501' })
    const [row] = await db.rows<{ storage_quota_bytes: string }>(
      'select storage_quota_bytes::text from public.workspaces where id = $1',
      [workspaceId],
    )
    expect(row!.storage_quota_bytes).toBe(String(2 ** 30))
  })
})

describe('bad files through the whole pipeline', () => {
  it('each fails with its reason, leaves no chunks, and touches nobody else', async () => {
    // Another member's document, whose rows, chunks and statistics must not move.
    const other = await ingestFile(clientFor(stack, people.owner), {
      workspaceId,
      bytes: realPdf,
      fileName: 'amcor.pdf',
    })
    if (other.status !== 'ready') throw new Error(JSON.stringify(other))
    const othersBefore = {
      doc: await db.document(other.documentId),
      chunks: await db.rows('select * from public.chunks where document_id = $1 order by ordinal', [
        other.documentId,
      ]),
      stats: await db.rows('select * from public.workspace_chunk_stats where workspace_id = $1', [
        workspaceId,
      ]),
    }

    const bomb = buildZip([
      { name: '[Content_Types].xml', data: new TextEncoder().encode('<Types/>') },
      { name: 'word/document.xml', data: new Uint8Array(200 * 2 ** 20) },
    ])
    const cases = [
      { fileName: 'half.pdf', bytes: realPdf.subarray(0, realPdf.length >> 1), error: /truncated/ },
      {
        fileName: 'locked.pdf',
        bytes: buildPdf({ pages: ['Secret plans'], encrypted: true }),
        error: /password/,
      },
      {
        fileName: 'scan.pdf',
        bytes: buildPdf({ pages: ['', ''] }),
        error: /^this PDF has no text layer \(scanned\?\)$/,
      },
      { fileName: 'bomb.docx', bytes: bomb, error: /would expand to more than 128 MB/ },
      {
        fileName: 'latin.txt',
        bytes: new Uint8Array([0x48, 0x69, 0x81, 0x0a]),
        error: /UTF-8/,
      },
    ]
    for (const { fileName, bytes, error } of cases) {
      const result = await ingestFile(editor(), { workspaceId, bytes, fileName })
      expect(result, fileName).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(error),
      })
      if (result.status !== 'failed') continue
      expect(await db.document(result.documentId), fileName).toMatchObject({
        status: 'failed',
        error: result.error,
        chunk_count: 0,
      })
      expect(await db.chunkCount(result.documentId)).toBe(0)
      expect(await db.textCount(result.documentId)).toBe(0)
    }

    expect(await db.document(other.documentId)).toEqual(othersBefore.doc)
    expect(
      await db.rows('select * from public.chunks where document_id = $1 order by ordinal', [
        other.documentId,
      ]),
    ).toEqual(othersBefore.chunks)
    expect(
      await db.rows('select * from public.workspace_chunk_stats where workspace_id = $1', [
        workspaceId,
      ]),
    ).toEqual(othersBefore.stats)
  })
})

import { expect, it } from 'vitest'
import { startIngestWorld } from '../ingest-helpers.ts'
import { bytesOf, setQuota, storageState } from '../storage-quota-helpers.ts'

// Issue #14, finding 5: the quota only counted what clients declared in documents.size_bytes,
// so an editor could declare a few bytes and then upload 40 MB straight into the bucket.
const { stack, workspaceId, editor } = await startIngestWorld()

it('an upload past the quota is refused, whatever documents.size_bytes declares', async () => {
  await setQuota(stack, workspaceId, 2 ** 20)
  const documentId = crypto.randomUUID()
  const path = `${workspaceId}/${documentId}/huge.pdf`
  const declared = await editor().from('documents').insert({
    id: documentId,
    workspace_id: workspaceId,
    title: 'huge.pdf',
    storage_path: path,
    size_bytes: 10,
    status: 'processing',
  })
  expect(declared.error).toBeNull()
  const before = await storageState(stack, workspaceId)

  const upload = await editor()
    .storage.from('documents')
    .upload(path, bytesOf(5 * 2 ** 20), { contentType: 'application/pdf' })

  expect(upload.data).toBeNull()
  expect(upload.error).toMatchObject({
    statusCode: '403',
    message: expect.stringMatching(/^This workspace's storage is full: "huge.pdf" needs 5120 kB/),
  })
  expect(await storageState(stack, workspaceId)).toEqual(before)
})

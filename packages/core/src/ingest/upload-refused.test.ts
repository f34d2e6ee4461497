import { describe, expect, it } from 'vitest'
import { UploadRefused, uploadError } from './upload-refused.ts'

describe('uploadError', () => {
  it('a 403, as supabase.storage or TUS gives it, is a refusal with Storage’s message', () => {
    for (const status of ['403', 403]) {
      const error = uploadError(status, "This workspace's storage is full")
      expect(error).toBeInstanceOf(UploadRefused)
      expect(error.message).toBe("This workspace's storage is full")
    }
  })

  it('anything else is a failure that says the upload failed', () => {
    for (const status of ['500', 413, undefined]) {
      const error = uploadError(status, 'Internal Server Error')
      expect(error).not.toBeInstanceOf(UploadRefused)
      expect(error.message).toBe('the upload failed: Internal Server Error')
    }
  })
})

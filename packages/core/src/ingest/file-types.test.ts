import { describe, expect, it } from 'vitest'
import { fileExtension, fileRefusal, supportedMimeType } from './file-types.ts'

const text = new TextEncoder().encode('Some notes.\n')

describe('file types', () => {
  it('an extension has a letter; version numbers and initials are not extensions', () => {
    expect(fileExtension('Report.PDF')).toBe('pdf')
    expect(fileExtension('notes.tar.gz')).toBe('gz')
    expect(fileExtension('budget v1.2')).toBeUndefined()
    expect(fileExtension('Letter to Dr. Smith')).toBeUndefined()
    expect(fileExtension('README')).toBeUndefined()
  })

  it('knows the supported types only, not what an object inherits', () => {
    expect(supportedMimeType('md')).toBe('text/markdown')
    expect(supportedMimeType('constructor')).toBeUndefined()
    expect(supportedMimeType('toString')).toBeUndefined()
  })

  it('lets supported and extension-less text through, refuses the rest with a reason', () => {
    expect(fileRefusal(text, 'notes.md', undefined, 100)).toBeUndefined()
    expect(fileRefusal(text, 'budget v1.2', undefined, 100)).toBeUndefined()
    expect(fileRefusal(text, 'a.constructor', undefined, 100)).toMatch(
      /^"a.constructor": \.constructor files are not supported\./,
    )
    expect(fileRefusal(text, 'notes.md', undefined, 5)).toBe('"notes.md" is larger than 1 KB.')
    expect(fileRefusal(text, 'notes.docx', undefined, 100)).toBe(
      '"notes.docx" is named as a Word document but its content is plain text.',
    )
  })
})

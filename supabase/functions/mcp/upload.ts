/// <reference lib="dom" />
// upload_document: adds a document through the same ingestion pipeline as the web app's
// upload (packages/core/src/ingest: the same file checks, duplicate detection, storage quota,
// extraction, chunking and embedding), run here as the token's person, so RLS decides: only
// an editor's or owner's write token gets this far. Offered to write tokens only (server.ts).
// No fetching by URL: a server that fetches what a client names can be pointed at private
// addresses, so the client sends the bytes.
import { z } from 'npm:zod@4.6.7'
import type { CallToolResult } from './deps.ts'
import { documentLink } from './links.ts'
import { ToolProblem, type Session } from './session.ts'

/** What one JSON-RPC message comfortably carries; larger files go through the app. */
const MAX_BYTES = 20 * 1024 * 1024

export const uploadInput = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .describe('The file name with its extension, e.g. "notes.md" or "report.pdf"'),
  content_base64: z.base64().describe('The file’s bytes, base64-encoded (at most 20 MB)'),
  title: z.string().trim().min(1).max(500).optional().describe('A title (default: the name)'),
}

function decode(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export async function uploadDocument(
  session: Session,
  args: { name: string; content_base64: string; title?: string },
): Promise<CallToolResult> {
  if (session.grant.scope !== 'write') {
    throw new ToolProblem('This token can only read: create a token with upload access')
  }
  if (args.content_base64.length > Math.ceil(MAX_BYTES / 3) * 4) {
    throw new ToolProblem('The file is larger than 20 MB: upload it in Sourcebook instead')
  }
  // Loaded on first use: extraction (PDF, Word, HTML) is large, and most calls only read.
  const { ingestFile } = await import('../_shared/core/ingest/ingest-file.ts')
  const { workspaceId } = session.grant
  const result = await ingestFile(
    session.db,
    { workspaceId, bytes: decode(args.content_base64), fileName: args.name, title: args.title },
    { maxBytes: MAX_BYTES },
  )
  switch (result.status) {
    case 'refused':
      throw new ToolProblem(`Sourcebook refused the file: ${result.error}`)
    case 'failed':
      throw new ToolProblem(`The document could not be read: ${result.error}`)
    case 'duplicate': {
      const link = documentLink(workspaceId, result.documentId)
      return {
        content: [
          {
            type: 'text',
            text: `This file is already in the workspace as “${result.title}” (document_id ${result.documentId}): ${link}`,
          },
        ],
        structuredContent: { status: 'duplicate', document_id: result.documentId, link },
      }
    }
    case 'ready': {
      const link = documentLink(workspaceId, result.documentId)
      const warning = result.warning ? ` ${result.warning}` : ''
      return {
        content: [
          {
            type: 'text',
            text: `Added and indexed: ${result.chunkCount} passages${result.pageCount > 1 ? ` over ${result.pageCount} pages` : ''}, searchable now (document_id ${result.documentId}).${warning}\n${link}`,
          },
        ],
        structuredContent: {
          status: 'ready',
          document_id: result.documentId,
          passages: result.chunkCount,
          pages: result.pageCount,
          link,
          ...(result.warning ? { warning: result.warning } : {}),
        },
      }
    }
  }
}

export const documentKeys = {
  all: ['documents'] as const,
  detail: (documentId: string) => [...documentKeys.all, 'detail', documentId] as const,
  text: (documentId: string) => [...documentKeys.all, 'text', documentId] as const,
  ocrLines: (documentId: string) => [...documentKeys.all, 'ocr-lines', documentId] as const,
  chunk: (documentId: string, chunkId: string) =>
    [...documentKeys.all, 'chunk', documentId, chunkId] as const,
  original: (documentId: string, path: string) =>
    [...documentKeys.all, 'original', documentId, path] as const,
}

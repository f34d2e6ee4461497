/** How each stage of ingesting a document reads in the UI (documents.stage). */
export const stageLabels: Record<string, string> = {
  uploading: 'Uploading',
  extracting: 'Extracting text',
  chunking: 'Chunking',
  indexing: 'Indexing',
  embedding: 'Embedding',
  ready: 'Ready',
}

export const stageLabel = (stage: string) => stageLabels[stage] ?? stage

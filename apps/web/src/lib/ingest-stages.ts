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

/** OCR's progress, in the same words for the uploader and for everyone watching the library. */
export const recognisingLabel = (page: number, pages: number) =>
  `Recognising page ${page} of ${pages}`

/** The page OCR is on, as a documents row carries it while a scan is being read. */
type OcrProgress = { stage: string; ocr_page: number | null; ocr_page_count: number | null }

/** Whether the row says OCR is reading one of its pages right now. */
export const isRecognising = ({ stage, ocr_page, ocr_page_count }: OcrProgress) =>
  stage === 'extracting' && Boolean(ocr_page && ocr_page_count)

/** A processing document's stage as members see it: the page OCR is on, while it reads one. */
export const processingLabel = (doc: OcrProgress) =>
  isRecognising(doc) ? recognisingLabel(doc.ocr_page!, doc.ocr_page_count!) : stageLabel(doc.stage)

/**
 * What a document still being ingested is doing, in the words the library row, the document
 * page's badge and its body all use: "Queued", the stage, or the page OCR is on.
 */
export const statusLabel = (doc: OcrProgress & { status: string }) =>
  doc.status === 'queued' ? 'Queued' : processingLabel(doc)

/** The status with its progress, e.g. "Recognising page 3 of 30… 12%". */
export const progressText = (doc: OcrProgress & { status: string; progress: number }) =>
  `${statusLabel(doc)}… ${Math.round(doc.progress * 100)}%`

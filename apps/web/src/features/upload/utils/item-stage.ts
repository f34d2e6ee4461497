import { recognisingLabel, stageLabel } from '@/lib/ingest-stages'
import type { UploadItem } from './upload-queue'

/** A running upload's stage, in the words the library and the document page use for it. */
export const itemStageLabel = (item: UploadItem) =>
  item.ocr ? recognisingLabel(item.ocr.page, item.ocr.pages) : stageLabel(item.stage ?? 'uploading')

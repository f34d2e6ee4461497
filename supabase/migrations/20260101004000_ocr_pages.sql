-- Scanned PDFs are read by OCR (issue #17).
--
-- documents.ocr_pages: how many pages of the document were read by OCR (0 for a born-digital
-- file), set by the ingest pipeline with the rest of the ready row, so the library can say a
-- document's text was recognised rather than read (OCR text may hold misreadings).
alter table public.documents
  add column ocr_pages integer not null default 0 check (ocr_pages >= 0);

-- document_texts.ocr_lines: for each OCR'd page, the lines Tesseract placed ([{ number, lines:
-- [{ text, box: [left, top, right, bottom] as fractions of the page }] }]). The PDF viewer has no
-- text layer on such a page and tints these boxes to highlight a passage. They sit beside the
-- text they describe: written in the same upsert, read with it by the viewer, same access
-- (members read, editors write) and same lifetime (gone with the text when indexing fails, with
-- the document when it is deleted), and out of the Realtime publication like the text.
alter table public.document_texts
  add column ocr_lines jsonb check (ocr_lines is null or jsonb_typeof(ocr_lines) = 'array');

/** Where the build serves OCR's language data (see tesseract-data.ts), by its package version. */
export const TESSDATA_DIR = 'assets/tessdata-eng-1.0.0'

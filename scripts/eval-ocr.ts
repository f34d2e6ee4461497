// OCR word accuracy and time per page on scans of born-digital pages (see ocr-fixtures.ts):
// `npm run eval:ocr` for the whole set, `-- --test` for the pages `npm test` checks.
import { createNodeOcr } from '../packages/core/src/extract/ocr-node.ts'
import { EVAL_PAGES, scoreFixture, TEST_PAGES } from '../packages/core/src/testing/ocr-fixtures.ts'

const fixtures = process.argv.includes('--test') ? TEST_PAGES : EVAL_PAGES
let totalMs = 0
for (const fixture of fixtures) {
  const score = await scoreFixture(fixture, createNodeOcr)
  totalMs += score.ms
  console.log(
    `${(score.accuracy * 100).toFixed(1).padStart(5)} %  ${String(score.words).padStart(5)} words  ` +
      `${(score.ms / 1000).toFixed(1).padStart(5)} s  ${score.file} p.${score.page}`,
  )
}
console.log(`${fixtures.length} pages, ${(fixtures.length / (totalMs / 1000)).toFixed(3)} pages/s`)

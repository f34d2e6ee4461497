import { describe, expect, it } from 'vitest'
import { exampleQuestions } from './example-questions'

describe('exampleQuestions', () => {
  it('asks about each document, tidying file names', () => {
    expect(exampleQuestions(['annual_report_2024.pdf', 'Field notes', 'Field notes'])).toEqual([
      'What are the key points of “annual report 2024”?',
      'What does “Field notes” conclude?',
      'Which figures or dates does “annual report 2024” mention?',
    ])
  })

  it('has nothing to suggest without documents', () => {
    expect(exampleQuestions([])).toEqual([])
    expect(exampleQuestions(['  '])).toEqual([])
  })
})

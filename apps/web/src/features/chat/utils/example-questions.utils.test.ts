import { describe, expect, it } from 'vitest'
import { exampleQuestions } from './example-questions'

describe('exampleQuestions', () => {
  it('asks what each document says about its headings, taking the documents in turn', () => {
    expect(
      exampleQuestions([
        {
          title: 'travel_policy.pdf',
          headings: ['Travel policy', '1. Hotels', '1. Hotels', '2. Flights:', '3. Meals'],
        },
        { title: 'Field notes', headings: ['## Mosses', 'Ferns'] },
      ]),
    ).toEqual([
      'What does “travel policy” say about Hotels?',
      'What does “Field notes” say about Mosses?',
      'What does “travel policy” say about Flights?',
    ])
  })

  it('asks for the key points of a document without headings, once, and skips repeats', () => {
    expect(
      exampleQuestions([
        { title: 'notes.txt', headings: [] },
        { title: 'notes.txt', headings: ['Later'] },
        { title: 'Budget', headings: ['x', `${'Long '.repeat(30)}heading`, '2024'] },
      ]),
    ).toEqual(['What are the key points of “notes”?', 'What are the key points of “Budget”?'])
  })

  it("never asks about a table's header row, which a passage inside a table names", () => {
    expect(
      exampleQuestions([
        { title: 'report.pdf', headings: ['| Fiscal Years Ended | February 2, 2019 |', 'Revenue'] },
      ]),
    ).toEqual(['What does “report” say about Revenue?'])
  })

  it('has nothing to suggest without documents', () => {
    expect(exampleQuestions([])).toEqual([])
    expect(exampleQuestions([{ title: '  ', headings: ['Hotels'] }])).toEqual([])
  })
})

import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MAX_QUESTION_LENGTH } from '../api/types'
import { Composer } from './composer'

describe('Composer', () => {
  it('sends on Enter, breaks lines on Shift+Enter, and tells others about typing', async () => {
    const onSend = vi.fn()
    const onTyping = vi.fn()
    const user = userEvent.setup()
    render(<Composer onSend={onSend} busy={false} onTyping={onTyping} />)
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    await user.type(box, 'First line{Shift>}{Enter}{/Shift}second')
    expect(box).toHaveValue('First line\nsecond')
    expect(onTyping).toHaveBeenLastCalledWith(true)
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledWith('First line\nsecond')
    expect(box).toHaveValue('')
    expect(onTyping).toHaveBeenLastCalledWith(false)
    // Nothing to send: Enter does nothing.
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledTimes(1)
  })

  it('refuses a question over the limit and shows the count', async () => {
    const onSend = vi.fn()
    const user = userEvent.setup()
    render(<Composer onSend={onSend} busy={false} />)
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    await user.click(box)
    await user.paste('x'.repeat(MAX_QUESTION_LENGTH + 1))
    expect(screen.getByText('4,001 / 4,000 characters')).toBeInTheDocument()
    expect(box).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    await user.keyboard('{Enter}')
    expect(onSend).not.toHaveBeenCalled()
  })

  it('offers Stop instead of Send while an answer streams', async () => {
    const onStop = vi.fn()
    const user = userEvent.setup()
    render(<Composer onSend={vi.fn()} busy onStop={onStop} />)
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    expect(onStop).toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument()
  })

  it('sends nothing once disabled, and keeps what was typed', async () => {
    const onSend = vi.fn()
    const user = userEvent.setup()
    const { rerender } = render(<Composer onSend={onSend} busy={false} />)
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    await user.type(box, 'Half a question')
    rerender(<Composer onSend={onSend} busy={false} disabled />)
    expect(box).toBeDisabled()
    expect(box).toHaveValue('Half a question')
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(onSend).not.toHaveBeenCalled()
  })

  it('completes an @ from the keyboard, takes it out of the question, and closes on Escape', async () => {
    const onMention = vi.fn()
    const onSend = vi.fn()
    const user = userEvent.setup()
    const options = [
      { kind: 'document' as const, id: 'd1', name: 'Voyage log.md' },
      { kind: 'document' as const, id: 'd2', name: 'Voyage charts.pdf' },
      { kind: 'collection' as const, id: 'c1', name: 'Board' },
    ]
    render(<Composer onSend={onSend} busy={false} mentionOptions={options} onMention={onMention} />)
    const box = screen.getByRole('textbox', { name: 'Ask a question' })
    await user.type(box, 'Compare @voy')
    const list = screen.getByRole('listbox', { name: 'Add to what this conversation answers from' })
    const choices = screen.getAllByRole('option')
    expect(choices.map((o) => o.textContent)).toEqual([
      'Voyage charts.pdfDocument',
      'Voyage log.mdDocument',
    ])
    expect(box).toHaveAttribute('aria-activedescendant', choices[0]!.id)
    await user.keyboard('{ArrowDown}')
    expect(choices[1]).toHaveAttribute('aria-selected', 'true')
    expect(box).toHaveAttribute('aria-activedescendant', choices[1]!.id)
    // Enter picks (and sends nothing).
    await user.keyboard('{Enter}')
    expect(onMention).toHaveBeenCalledWith(options[0])
    expect(onSend).not.toHaveBeenCalled()
    expect(list).not.toBeInTheDocument()
    expect(box).toHaveValue('Compare ')

    // Escape closes the list, and Enter then sends as usual.
    await user.type(box, '@bo')
    expect(screen.getByRole('option', { name: /Board/ })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    await user.keyboard('{Enter}')
    expect(onSend).toHaveBeenCalledWith('Compare @bo')
    expect(onMention).toHaveBeenCalledTimes(1)
  })
})

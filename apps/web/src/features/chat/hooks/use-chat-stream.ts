import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { errorMessage } from '@/lib/errors'
import { chatKeys } from '../api/keys'
import { type ChatEvent, streamChat } from '../api/stream-chat'
import type { LiveAnswer } from '../utils/live-answer'

const empty: LiveAnswer = {
  messageId: null,
  userMessageId: null,
  question: null,
  text: '',
  sources: [],
  extractive: false,
  replacing: null,
  error: null,
  stopped: false,
}

function apply(live: LiveAnswer, event: ChatEvent): LiveAnswer {
  switch (event.type) {
    case 'meta':
      return {
        ...live,
        messageId: event.assistant_message_id,
        userMessageId: event.user_message_id ?? null,
        extractive: event.extractive,
      }
    case 'sources':
      return { ...live, sources: event.sources }
    case 'delta':
      return { ...live, text: live.text + event.text }
    case 'error':
      return { ...live, error: event.message }
    case 'done':
      return live
  }
}

type ChatRequestBody = { content?: string; regenerate?: string }

/** A request the server never took (no row was written): kept to show and send again. */
export type Unsent = { request: ChatRequestBody; error: string }

/**
 * This person's own request to the chat function (one conversation: key its component by it): the answer as it streams, Stop, and the
 * error when it fails. Once the stream ends the stored rows are refetched before the live
 * copy is dropped, so nothing flickers.
 */
export function useChatStream(conversationId: string) {
  const queryClient = useQueryClient()
  const [live, setLive] = useState<LiveAnswer | null>(null)
  const [unsent, setUnsent] = useState<Unsent | null>(null)
  const controller = useRef<AbortController | null>(null)

  // Leaving the conversation stops its request (the function keeps what it wrote). Checked a
  // tick later, so React's development remount (StrictMode) does not count as leaving.
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      setTimeout(() => {
        if (!mounted.current) controller.current?.abort()
      })
    }
  }, [])

  const run = useCallback(
    async (request: ChatRequestBody) => {
      controller.current?.abort()
      setUnsent(null)
      const abort = new AbortController()
      controller.current = abort
      let state: LiveAnswer = {
        ...empty,
        question: request.content ?? null,
        replacing: request.regenerate ?? null,
      }
      setLive(state)
      try {
        const events = streamChat({ conversation_id: conversationId, ...request }, abort.signal)
        for await (const event of events) {
          state = apply(state, event)
          setLive(state)
        }
      } catch (error) {
        if (!abort.signal.aborted) {
          state = { ...state, error: errorMessage(error) }
          setLive(state)
        }
      }
      // Refused or cut off before the server wrote anything: the question is not lost but kept
      // as not sent, to send again (at once: there are no stored rows to wait for).
      if (state.error && !state.messageId) {
        if (controller.current !== abort) return
        controller.current = null
        setUnsent({ request, error: state.error })
        setLive(null)
        return
      }
      if (abort.signal.aborted && controller.current === abort) {
        // Stopped, perhaps before the first token: idle at once, the question kept on screen
        // (stored rows replace it as the function writes them; none if it never heard).
        controller.current = null
        state = { ...state, stopped: true, replacing: state.messageId ? state.replacing : null }
        setLive(state)
      }
      await queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId) })
      if (controller.current !== null && controller.current !== abort) return
      if (state.stopped) return
      controller.current = null
      setLive(null)
    },
    [conversationId, queryClient],
  )

  const stop = useCallback(() => controller.current?.abort(), [])
  const retry = useCallback(() => {
    if (unsent) void run(unsent.request)
  }, [run, unsent])
  const busy = live !== null && live.error === null && !live.stopped
  return { live, busy, send: run, stop, unsent, retry }
}

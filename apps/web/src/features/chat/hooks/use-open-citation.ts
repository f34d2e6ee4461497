import { createContext, useContext } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router'
import type { Citation, Message } from '../api/types'

/** The open citation's URL parameter: `?cite=<message id>:<n>`. */
const PARAM = 'cite'

/** Whether the URL has a citation open (the conversation list makes room for it). */
export const hasOpenCitation = (params: URLSearchParams) => params.has(PARAM)

/** Marks the history entry that opened the panel, so closing it is a step back. */
const openedHere = { citationPanel: true }

/** The citation `value` names among the messages shown, if it is still there. */
export function findCitation(messages: Message[], value: string | null): Citation | null {
  if (!value) return null
  const at = value.lastIndexOf(':')
  const n = Number(value.slice(at + 1))
  const message = messages.find((m) => m.id === value.slice(0, at))
  return message?.citations.find((c) => c.n === n) ?? null
}

/**
 * The citation open beside the conversation, kept in the URL so that Back closes it and a
 * shared link opens it; `show` opens one (replacing the one open), `close` steps back.
 */
export function useOpenCitation(messages: Message[]) {
  const [params] = useSearchParams()
  const location = useLocation()
  const navigate = useNavigate()
  const value = params.get(PARAM)
  const ours = (location.state as typeof openedHere | null)?.citationPanel === true

  function show(messageId: string, n: number) {
    const search = `?${new URLSearchParams({ [PARAM]: `${messageId}:${n}` })}`
    void navigate({ pathname: location.pathname, search }, { replace: ours, state: openedHere })
  }

  function close() {
    if (ours) void navigate(-1)
    else void navigate({ pathname: location.pathname }, { replace: true })
  }

  return { citation: findCitation(messages, value), key: value ?? '', show, close }
}

/** How a citation chip or source opens its passage beside the conversation. */
export const CitationOpener = createContext<((messageId: string, n: number) => void) | null>(null)

export const useCitationOpener = () => useContext(CitationOpener)

import { useQueryClient } from '@tanstack/react-query'
import type { RealtimeChannel } from '@supabase/supabase-js'
import { useCallback, useEffect, useRef, useState } from 'react'
import { supabase } from '@/lib/supabase'
import { chatKeys } from '../api/keys'
import type { LiveAnswer } from '../utils/live-answer'

export type Presence = { user_id: string; name: string; typing: boolean }

type Me = { userId: string; name: string }

const startAnswer = (messageId: string, userMessageId: string | null): LiveAnswer => ({
  messageId,
  userMessageId,
  question: null,
  text: '',
  sources: [],
  extractive: false,
  replacing: null,
  stopped: false,
  error: null,
})

/** The people on the channel, one entry each (a person may have several tabs open). */
function presentPeople(state: Record<string, Presence[]>): Presence[] {
  return Object.values(state).flatMap((metas) => {
    const meta = metas.find((m) => m.typing) ?? metas[0]
    return meta?.user_id ? [{ user_id: meta.user_id, name: meta.name, typing: meta.typing }] : []
  })
}

/**
 * The conversation's live side: its rows as they change (postgres_changes), a teammate's
 * answer as it streams (broadcast on the private `conversation:<id>` channel), and who is
 * here and typing (presence on the same channel).
 */
export function useConversationChannel(conversationId: string, me: Me) {
  const queryClient = useQueryClient()
  const [remote, setRemote] = useState<LiveAnswer | null>(null)
  const [present, setPresent] = useState<Presence[]>([])
  const channelRef = useRef<RealtimeChannel | null>(null)
  const typingRef = useRef(false)

  useEffect(() => {
    const refresh = () =>
      queryClient.invalidateQueries({ queryKey: chatKeys.messages(conversationId) })
    // Joined a tick later: React's development remount would otherwise reuse the channel it
    // is still leaving (supabase-js returns the existing channel of a topic).
    const join = setTimeout(() => {
      const channel = supabase.channel(`conversation:${conversationId}`, {
        config: { private: true, presence: { key: me.userId } },
      })
      channel
        .on(
          'postgres_changes',
          {
            event: '*',
            schema: 'public',
            table: 'messages',
            filter: `conversation_id=eq.${conversationId}`,
          },
          () => void refresh(),
        )
        .on('broadcast', { event: 'message-start' }, ({ payload }) =>
          setRemote(startAnswer(String(payload.message_id), payload.user_message_id ?? null)),
        )
        .on('broadcast', { event: 'delta' }, ({ payload }) =>
          setRemote((live): LiveAnswer => {
            // Joined mid-answer: start from the deltas that arrive from now on.
            const answer =
              live && live.messageId === payload.message_id
                ? live
                : startAnswer(String(payload.message_id), null)
            return { ...answer, text: answer.text + String(payload.text ?? '') }
          }),
        )
        .on('broadcast', { event: 'message-done' }, () => {
          void refresh().then(() => setRemote(null))
        })
        .on('presence', { event: 'sync' }, () =>
          setPresent(presentPeople(channel.presenceState<Presence>())),
        )
        .subscribe((status) => {
          if (status !== 'SUBSCRIBED') return
          typingRef.current = false
          void channel.track({ user_id: me.userId, name: me.name, typing: false })
          // Rows written while the channel was joining are fetched once it listens.
          void refresh()
        })
      channelRef.current = channel
    })
    return () => {
      clearTimeout(join)
      const channel = channelRef.current
      channelRef.current = null
      setRemote(null)
      setPresent([])
      if (channel) void supabase.removeChannel(channel)
    }
  }, [conversationId, me.userId, me.name, queryClient])

  /** Tells the others whether this person is typing; only changes are sent. */
  const setTyping = useCallback(
    (typing: boolean) => {
      const channel = channelRef.current
      if (!channel || typingRef.current === typing) return
      typingRef.current = typing
      void channel.track({ user_id: me.userId, name: me.name, typing })
    },
    [me.userId, me.name],
  )

  return { remote, present, setTyping }
}

// The answer as it streams, on the conversation's private realtime channel, so every member
// watching sees it arrive. Deltas are gathered and sent every FLUSH_MS, which keeps realtime
// traffic to a few messages a second whatever the model's token rate.

const url = Deno.env.get('SUPABASE_URL')!
const serviceKey = Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!
const FLUSH_MS = 75

export type LiveAnswer = { delta(text: string): void; done(): Promise<void> }

export function liveAnswer(
  conversationId: string,
  messageId: string,
  userMessageId: string,
): LiveAnswer {
  const topic = `conversation:${conversationId}`
  let pending = ''
  let timer: ReturnType<typeof setTimeout> | null = null
  // Sends go one after another, so deltas arrive in order.
  let chain: Promise<void> = Promise.resolve()

  const post = (event: string, payload: Record<string, unknown>) => {
    chain = chain.then(async () => {
      try {
        const res = await fetch(`${url}/realtime/v1/api/broadcast`, {
          method: 'POST',
          headers: {
            apikey: serviceKey,
            Authorization: `Bearer ${serviceKey}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ messages: [{ topic, event, payload, private: true }] }),
        })
        await res.body?.cancel()
      } catch (error) {
        // Viewers still get the stored answer through postgres_changes.
        console.warn(`chat: broadcast ${event} failed: ${error}`)
      }
    })
  }
  const flush = () => {
    timer = null
    if (!pending) return
    post('delta', { message_id: messageId, text: pending })
    pending = ''
  }

  post('message-start', { message_id: messageId, user_message_id: userMessageId })
  return {
    delta(text) {
      pending += text
      timer ??= setTimeout(flush, FLUSH_MS)
    },
    async done() {
      if (timer) clearTimeout(timer)
      flush()
      post('message-done', { message_id: messageId })
      await chain
    },
  }
}

import { inject } from 'vitest'
import { supabase } from '@/lib/supabase'

/** Asks through the chat function as the signed-in person and reads the whole stream. */
export async function ask(conversationId: string, content: string) {
  const { data } = await supabase.auth.getSession()
  const response = await fetch(`${inject('localbaseUrl')}/functions/v1/chat`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${data.session!.access_token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ conversation_id: conversationId, content }),
  })
  const stream = await response.text()
  if (!stream.includes('event: done')) throw new Error(`the chat failed: ${stream}`)
}

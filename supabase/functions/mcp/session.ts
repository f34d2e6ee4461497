// What every tool works with: the token's grant, and a supabase-js client that sends the
// short-lived JWT of the token's person, so every read and write goes through RLS as them.
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.119.1'
import type { Grant } from '../_shared/caller.ts'

export type Session = {
  grant: Grant
  /** `Bearer <jwt>` for the person, for calls to the other functions. */
  authorization: string
  db: SupabaseClient
}

const url = Deno.env.get('SUPABASE_URL')!
const anonKey = Deno.env.get('SUPABASE_ANON_KEY')!
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

export function openSession(grant: Grant, authorization: string): Session {
  const db = createClient(url, anonKey, {
    auth: noSession,
    global: { headers: { Authorization: authorization } },
  })
  return { grant, authorization, db }
}

/**
 * Calls another of this project's functions as the token's person: search and chat are the
 * one retrieval and answer pipeline, so the MCP tools reuse them rather than copy them.
 */
export function callFunction(session: Session, name: string, body: unknown): Promise<Response> {
  return fetch(`${url}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      Authorization: session.authorization,
      apikey: anonKey,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  })
}

/** A problem the caller can act on: its message goes to the client as the tool's error. */
export class ToolProblem extends Error {}

/** The message of a function's `{ code, message }` error body, or a fallback. */
export async function problemOf(res: Response, fallback: string): Promise<ToolProblem> {
  const body = (await res.json().catch(() => null)) as { message?: string } | null
  return new ToolProblem(body?.message ?? `${fallback} (HTTP ${res.status})`)
}

import { createClient } from '@supabase/supabase-js'
import { env } from '@/config/env'
import { monitoredFetch, watchRealtime } from './connection'
import type { Database } from './database.types'

// One client for the whole app; supabase-js keeps the session in localStorage and
// syncs it across tabs, and refreshes the access token before it expires.
export const supabase = createClient<Database>(env.SUPABASE_URL, env.SUPABASE_PUBLISHABLE_KEY, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: true,
    flowType: 'implicit',
  },
  // Every request tells the connection monitor whether the server answered.
  global: { fetch: monitoredFetch },
})

watchRealtime(supabase)

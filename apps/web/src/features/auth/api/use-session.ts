import type { Session } from '@supabase/supabase-js'
import { useEffect, useState } from 'react'
import { supabase } from '@/lib/supabase'

/** The current session, kept up to date across sign-in, sign-out, refresh and other tabs. */
export function useSession() {
  const [state, setState] = useState<{ session: Session | null; loading: boolean }>({
    session: null,
    loading: true,
  })
  useEffect(() => {
    let live = true
    void supabase.auth.getSession().then(({ data }) => {
      if (live) setState({ session: data.session, loading: false })
    })
    const { data } = supabase.auth.onAuthStateChange((_event, session) => {
      if (live) setState({ session, loading: false })
    })
    return () => {
      live = false
      data.subscription.unsubscribe()
    }
  }, [])
  return state
}

/** The session for route loaders; null when signed out. */
export async function getSession(): Promise<Session | null> {
  const { data } = await supabase.auth.getSession()
  return data.session
}

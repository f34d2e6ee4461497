import type { DataRouter } from 'react-router'
import { queryClient } from '@/lib/query-client'
import { supabase } from '@/lib/supabase'

/**
 * Keeps the router in step with the session, in this tab and others (supabase-js relays
 * storage events): signing out anywhere drops cached data and leaves signed-in pages.
 */
export function syncRouterWithAuth(router: DataRouter) {
  let userId: string | undefined
  supabase.auth.onAuthStateChange((event, session) => {
    const next = session?.user.id
    if (event === 'SIGNED_OUT' || (userId && next && next !== userId)) {
      queryClient.clear()
      void router.revalidate()
    }
    if (event === 'PASSWORD_RECOVERY') void router.navigate('/reset-password')
    userId = next
  })
}

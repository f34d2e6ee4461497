import { useSyncExternalStore } from 'react'
import { connection } from '@/lib/connection'

/** Whether the server is out of reach right now (see lib/connection). */
export function useConnectionDown() {
  return useSyncExternalStore(connection.subscribe, connection.isDown)
}

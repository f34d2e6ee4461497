import { localStore } from '@/lib/storage'

const KEY = 'sourcebook:last-workspace'

export const lastWorkspace = {
  get: () => localStore.get(KEY),
  set: (workspaceId: string | null) => localStore.set(KEY, workspaceId),
}

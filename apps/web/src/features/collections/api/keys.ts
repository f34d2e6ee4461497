export const collectionKeys = {
  all: ['collections'] as const,
  /** A workspace's collections with their memberships. */
  list: (workspaceId: string) => [...collectionKeys.all, workspaceId] as const,
}

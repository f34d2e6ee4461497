export const libraryKeys = {
  all: ['library'] as const,
  documents: (workspaceId: string) => [...libraryKeys.all, workspaceId, 'documents'] as const,
  storage: (workspaceId: string) => [...libraryKeys.all, workspaceId, 'storage'] as const,
}

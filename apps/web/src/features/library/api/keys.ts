export const libraryKeys = {
  all: ['library'] as const,
  documents: (workspaceId: string) => [...libraryKeys.all, workspaceId, 'documents'] as const,
}

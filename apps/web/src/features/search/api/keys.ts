export const searchKeys = {
  all: ['search'] as const,
  results: (workspaceId: string, query: string, documentId: string | null) =>
    [...searchKeys.all, workspaceId, 'results', query, documentId] as const,
  documents: (workspaceId: string) => [...searchKeys.all, workspaceId, 'documents'] as const,
}

import type { SearchFilters } from './search-chunks'

export const searchKeys = {
  all: ['search'] as const,
  results: (workspaceId: string, query: string, filters: SearchFilters) =>
    [...searchKeys.all, workspaceId, 'results', query, filters] as const,
  documents: (workspaceId: string) => [...searchKeys.all, workspaceId, 'documents'] as const,
  collections: (workspaceId: string) => [...searchKeys.all, workspaceId, 'collections'] as const,
}

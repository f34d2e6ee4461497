import { QueryClient } from '@tanstack/react-query'

/** Failures that retrying cannot fix: a row that is not there, or a request the server refused. */
function isPermanent(error: unknown): boolean {
  const status = (error as { status?: number } | null)?.status
  const code = (error as { code?: string } | null)?.code
  return (status !== undefined && status >= 400 && status < 500) || code === 'PGRST116'
}

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isPermanent(error) && count < 2,
      },
      mutations: { retry: false },
    },
  })
}

export const queryClient = makeQueryClient()

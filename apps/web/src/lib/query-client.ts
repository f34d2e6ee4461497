import { MutationCache, QueryClient } from '@tanstack/react-query'
import { failureToast } from './failure-toast'

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /**
       * What a failure of this mutation means to a person ('Could not rename the document'):
       * set, a failure says so in a toast, with Retry when the connection failed.
       */
      failure?: string
    }
  }
}

/** Failures that retrying cannot fix: a row that is not there, or a request the server refused. */
function isPermanent(error: unknown): boolean {
  const status = (error as { status?: number } | null)?.status
  const code = (error as { code?: string } | null)?.code
  return (status !== undefined && status >= 400 && status < 500) || code === 'PGRST116'
}

export function makeQueryClient() {
  const client: QueryClient = new QueryClient({
    // The one place a failed change is toasted: Retry runs the same mutation again, with its
    // options (so its success toast and cache updates too) and the same variables; failing
    // again, it comes back here.
    mutationCache: new MutationCache({
      onError: (error, variables, _context, mutation) => {
        const failure = mutation.meta?.failure
        if (!failure) return
        failureToast(failure, error, () => {
          const again = client.getMutationCache().build(client, mutation.options)
          again.execute(variables).catch(() => undefined)
        })
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isPermanent(error) && count < 2,
      },
      mutations: { retry: false },
    },
  })
  return client
}

export const queryClient = makeQueryClient()

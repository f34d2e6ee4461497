import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import type * as React from 'react'
import { AppErrorBoundary } from '@/components/layout/app-error-boundary'
import { ConnectionBanner } from '@/components/layout/connection-banner'
import { useTheme } from '@/hooks/use-theme'
import { queryClient } from '@/lib/query-client'

// Toasts only follow a person's actions, so their code need not be in the first download.
const Toaster = lazy(() => import('@/components/ui/sonner').then((m) => ({ default: m.Toaster })))

export function AppProvider({ children }: { children: React.ReactNode }) {
  const { resolved } = useTheme()
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <ConnectionBanner />
        {children}
        <Suspense fallback={null}>
          <Toaster theme={resolved} position="bottom-right" richColors closeButton />
        </Suspense>
      </QueryClientProvider>
    </AppErrorBoundary>
  )
}

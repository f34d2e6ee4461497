import { QueryClientProvider } from '@tanstack/react-query'
import type * as React from 'react'
import { AppErrorBoundary } from '@/components/layout/app-error-boundary'
import { Toaster } from '@/components/ui/sonner'
import { useTheme } from '@/hooks/use-theme'
import { queryClient } from '@/lib/query-client'

export function AppProvider({ children }: { children: React.ReactNode }) {
  const { resolved } = useTheme()
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster theme={resolved} position="bottom-right" richColors closeButton />
      </QueryClientProvider>
    </AppErrorBoundary>
  )
}

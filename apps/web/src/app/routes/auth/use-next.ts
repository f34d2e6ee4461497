import { useSearchParams } from 'react-router'
import { safeNextPath } from '@/lib/next-path'

export function useNextPath() {
  const [params] = useSearchParams()
  return safeNextPath(params.get('next'))
}

import { Progress } from '@/components/ui/progress'
import { formatBytes } from '@/lib/format'
import { useStorageUsage } from '../api/get-storage-usage'

/** How much of its storage quota the workspace's files take, as the quota counts it. */
export function StorageUsage({ workspaceId }: { workspaceId: string }) {
  const usage = useStorageUsage(workspaceId)
  if (!usage.data) return null
  const { used, quota } = usage.data
  return (
    <div className="text-muted-foreground flex items-center gap-2 px-4 pb-3 text-xs sm:px-8">
      <span>
        Storage: {formatBytes(used)} of {formatBytes(quota)} used
      </span>
      <Progress value={quota > 0 ? used / quota : 1} aria-label="Storage used" className="w-32" />
    </div>
  )
}

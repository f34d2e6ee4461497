import { ShieldCheckIcon } from 'lucide-react'
import { Link } from 'react-router'
import { useWorkspacesRequiringMfa } from '../api/get-workspaces-requiring-mfa'

/** On the workspace list: the workspaces this session cannot open until it gives a code. */
export function TwoFactorNotice() {
  const { data: closed } = useWorkspacesRequiringMfa()
  if (!closed?.length) return null
  return (
    <section
      aria-labelledby="two-factor-notice"
      className="bg-card mb-6 flex items-start gap-3 rounded-xl border p-4 shadow-xs"
    >
      <ShieldCheckIcon className="text-muted-foreground mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="grid gap-1 text-sm">
        <h2 id="two-factor-notice" className="font-medium">
          {closed.length === 1
            ? 'A workspace requires two-factor sign-in'
            : `${closed.length} workspaces require two-factor sign-in`}
        </h2>
        <ul className="grid gap-1">
          {closed.map((workspace) => (
            <li key={workspace.id}>
              <Link to={`/w/${workspace.id}`} className="font-medium underline underline-offset-4">
                Open {workspace.name}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

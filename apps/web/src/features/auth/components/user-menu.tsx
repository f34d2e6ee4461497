import { LogOutIcon, UserRoundCogIcon } from 'lucide-react'
import { Link } from 'react-router'
import { Avatar, AvatarFallback } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { useSession } from '../api/use-session'
import { useSignOut } from '../api/sign-out'

export function UserMenu({ onSignedOut }: { onSignedOut: () => void }) {
  const { session } = useSession()
  const signOut = useSignOut({ onSuccess: onSignedOut })
  const email = session?.user.email ?? ''
  const name = (session?.user.user_metadata.display_name as string | undefined) || email
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-auto w-full min-w-0 justify-start gap-2 px-2 py-1.5">
          <span className="sr-only">Account menu: </span>
          <Avatar className="size-7">
            <AvatarFallback>{name.slice(0, 1).toUpperCase()}</AvatarFallback>
          </Avatar>
          <span className="min-w-0 flex-1 overflow-hidden text-left">
            <span className="block truncate text-sm font-medium">{name}</span>
            {name !== email ? (
              <span className="text-muted-foreground block truncate text-xs">{email}</span>
            ) : null}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56">
        <DropdownMenuLabel className="truncate">{email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/account">
            <UserRoundCogIcon /> Account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => signOut.mutate()}>
          <LogOutIcon /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

import { LockIcon, MoreHorizontalIcon, PencilIcon, Trash2Icon, UsersIcon } from 'lucide-react'
import { NavLink } from 'react-router'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { cn } from '@/lib/utils'
import type { Conversation } from '../api/types'

type ConversationItemProps = {
  conversation: Conversation
  href: string
  /** The creator's name when it is someone else's shared conversation. */
  creator: string | null
  mine: boolean
  onRename: () => void
  onToggleShared: () => void
  onDelete: () => void
}

/** A conversation in the list: its title, whether it is shared and by whom, and its menu. */
export function ConversationItem({
  conversation,
  href,
  creator,
  mine,
  onRename,
  onToggleShared,
  onDelete,
}: ConversationItemProps) {
  const shared = conversation.visibility === 'shared'
  return (
    <li className="group/item relative min-w-0" data-testid="conversation-item">
      <NavLink
        to={href}
        className={({ isActive }) =>
          cn(
            'hover:bg-accent flex min-w-0 flex-col rounded-md py-2 pr-9 pl-3 text-sm',
            isActive && 'bg-accent font-medium',
          )
        }
      >
        <span className="flex min-w-0 items-center gap-1.5">
          {shared ? (
            <UsersIcon className="text-muted-foreground size-3.5 shrink-0" aria-label="Shared" />
          ) : null}
          <span className="truncate">{conversation.title}</span>
        </span>
        {creator ? (
          <span className="text-muted-foreground truncate text-xs font-normal">by {creator}</span>
        ) : null}
      </NavLink>
      {mine ? (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              size="icon-sm"
              variant="ghost"
              aria-label={`Actions for ${conversation.title}`}
              className="absolute top-1 right-1 opacity-70 group-hover/item:opacity-100 focus-visible:opacity-100"
            >
              <MoreHorizontalIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={onRename}>
              <PencilIcon />
              Rename
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={onToggleShared}>
              {shared ? <LockIcon /> : <UsersIcon />}
              {shared ? 'Make private' : 'Share with workspace'}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={onDelete}>
              <Trash2Icon />
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </li>
  )
}

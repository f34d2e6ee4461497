import { Avatar, AvatarFallback } from '@/components/ui/avatar'
import type { Person } from '../api/get-people'
import type { Presence } from '../hooks/use-conversation-channel'

type PresenceBarProps = { present: Presence[]; userId: string; people: Map<string, Person> }

function typingLine(names: string[]): string | null {
  if (names.length === 0) return null
  if (names.length === 1) return `${names[0]} is typing…`
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`
}

/** Who else has the conversation open (avatars), and who of them is typing. */
export function PresenceBar({ present, userId, people }: PresenceBarProps) {
  const others = present.filter((p) => p.user_id !== userId)
  const typing = typingLine(others.filter((p) => p.typing).map((p) => p.name))
  return (
    <div className="flex min-w-0 items-center gap-2">
      {typing ? (
        <span className="text-muted-foreground hidden truncate text-xs sm:inline" role="status">
          {typing}
        </span>
      ) : null}
      <ul className="flex -space-x-2" aria-label="Here now">
        {present.map((person) => {
          const color = people.get(person.user_id)?.color ?? '#71717a'
          const label = person.user_id === userId ? `${person.name} (you)` : person.name
          return (
            <li key={person.user_id} title={label} aria-label={label}>
              <Avatar className="ring-background size-7 ring-2">
                <AvatarFallback style={{ backgroundColor: color }} className="text-xs text-white">
                  {person.name.slice(0, 1).toUpperCase()}
                </AvatarFallback>
              </Avatar>
            </li>
          )
        })}
      </ul>
    </div>
  )
}

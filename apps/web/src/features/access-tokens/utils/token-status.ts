import { formatDate, formatDateTime } from '@/lib/format'

export const expiries = ['30', '90', '365', 'never'] as const

export const expiryLabels: Record<(typeof expiries)[number], string> = {
  '30': '30 days',
  '90': '90 days',
  '365': '1 year',
  never: 'Never',
}

export const scopeLabels = { read: 'Read', write: 'Read and upload' } as const

type TokenDates = { expires_at: string | null; revoked_at: string | null }

/** Whether a token still works, as a word the list shows. */
export function tokenState(token: TokenDates, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (token.revoked_at) return 'revoked'
  if (token.expires_at && Date.parse(token.expires_at) <= now) return 'expired'
  return 'active'
}

/** "Expires 22 Feb 2027", "Never expires", "Expired 3 Jan 2027", "Revoked 5 Jan 2027". */
export function expiryText(token: TokenDates, now = Date.now()): string {
  const state = tokenState(token, now)
  if (state === 'revoked') return `Revoked ${formatDate(token.revoked_at!)}`
  if (!token.expires_at) return 'Never expires'
  return `${state === 'expired' ? 'Expired' : 'Expires'} ${formatDate(token.expires_at)}`
}

export const lastUseText = (lastUsedAt: string | null) =>
  lastUsedAt ? `Last used ${formatDateTime(lastUsedAt)}` : 'Never used'

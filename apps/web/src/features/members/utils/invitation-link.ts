/** The page an invitee opens; it is served by the app itself. */
export function invitationLink(token: string): string {
  return `${window.location.origin}/invite/${token}`
}

export function expiresIn(expiresAt: string, now = Date.now()): string {
  const days = Math.ceil((new Date(expiresAt).getTime() - now) / 86_400_000)
  if (days <= 0) return 'Expired'
  return days === 1 ? 'Expires in 1 day' : `Expires in ${days} days`
}

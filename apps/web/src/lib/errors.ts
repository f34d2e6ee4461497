/** A message a person can read, for anything a request may throw. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.') {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = String((error as { message: unknown }).message)
    if (message && !/^(Internal Server Error|Failed to fetch|TypeError)/i.test(message))
      return message
  }
  if (error instanceof TypeError) return 'Cannot reach the server. Check your connection.'
  return fallback
}

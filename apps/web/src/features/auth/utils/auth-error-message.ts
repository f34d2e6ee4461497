import { isAuthError } from '@supabase/supabase-js'
import { connectionProblem } from '@/lib/errors'

// What each GoTrue error code means to a person, and what they can do about it.
const messages: Record<string, string> = {
  invalid_credentials: 'That email and password don’t match. Check them and try again.',
  user_already_exists: 'An account with this email already exists. Sign in instead.',
  email_exists: 'An account with this email already exists. Sign in instead.',
  weak_password:
    'That password is too weak. Use at least 8 characters and mix in numbers or symbols.',
  email_not_confirmed:
    'Confirm your email address first: open the link we sent you, or ask for a new one.',
  over_request_rate_limit: 'Too many attempts. Wait a few minutes, then try again.',
  over_email_send_rate_limit: 'We just sent you an email. Wait a minute before asking for another.',
  signup_disabled: 'New sign-ups are turned off for this Sourcebook.',
  user_banned: 'This account is suspended. Contact your administrator.',
  otp_expired: 'That link has expired or was already used. Ask for a new one.',
  same_password: 'Choose a password different from your current one.',
  session_not_found: 'Your session has ended. Sign in again.',
  validation_failed: 'Check the email address and try again.',
  email_address_invalid: 'That email address is not valid.',
  user_not_found: 'No account uses this email address.',
  mfa_verification_failed:
    'That code is not right, or it was already used. Wait for the next one in your app and try again.',
  mfa_challenge_expired: 'That took too long. Enter the code your app shows now.',
  mfa_factor_name_conflict: 'You already have an authenticator app with that name. Choose another.',
  too_many_enrolled_mfa_factors: 'You have as many authenticator apps as an account can have.',
  insufficient_aal: 'Sign in with a code from your authenticator app first, then try again.',
}

export function authErrorMessage(error: unknown): string {
  if (isAuthError(error)) {
    if (error.code && messages[error.code]) return messages[error.code]!
    if (error.status === 429) return messages.over_request_rate_limit!
    const connection = connectionProblem(error)
    if (connection) return connection
    if (error.message) return error.message
  }
  return 'Something went wrong. Please try again.'
}

/** Auth refused a sign-in because the address is not confirmed yet. */
export function isUnconfirmed(error: unknown): boolean {
  return isAuthError(error) && error.code === 'email_not_confirmed'
}

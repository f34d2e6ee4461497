import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from './keys'

/**
 * The signed-in person's authenticator apps (verified factors) and how far this session has
 * proved who they are: `needsCode` when the account has a factor but this session signed in
 * with the password alone.
 */
export async function getTwoFactor() {
  const [factors, level] = await Promise.all([
    supabase.auth.mfa.listFactors(),
    supabase.auth.mfa.getAuthenticatorAssuranceLevel(),
  ])
  if (factors.error) throw factors.error
  if (level.error) throw level.error
  const verified = factors.data.totp
  return {
    factors: verified.map((factor) => ({
      id: factor.id,
      name: factor.friendly_name || 'Authenticator app',
      createdAt: factor.created_at,
    })),
    /** Abandoned enrolments, removed before a new one starts. */
    unverifiedIds: factors.data.all
      .filter((factor) => factor.status === 'unverified')
      .map((factor) => factor.id),
    isVerified: level.data.currentLevel === 'aal2',
    needsCode: level.data.currentLevel === 'aal1' && level.data.nextLevel === 'aal2',
  }
}

export type TwoFactor = Awaited<ReturnType<typeof getTwoFactor>>

export const getTwoFactorQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.twoFactor(), queryFn: getTwoFactor })

export function useTwoFactor() {
  return useQuery(getTwoFactorQueryOptions())
}

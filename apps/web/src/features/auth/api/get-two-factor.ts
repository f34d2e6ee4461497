import { queryOptions, useQuery } from '@tanstack/react-query'
import { supabase } from '@/lib/supabase'
import { accountKeys } from './keys'

/** The signed-in person's authenticator apps (verified factors), and abandoned enrolments. */
export async function getTwoFactor() {
  const factors = await supabase.auth.mfa.listFactors()
  if (factors.error) throw factors.error
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
  }
}

export type TwoFactor = Awaited<ReturnType<typeof getTwoFactor>>

export const getTwoFactorQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.twoFactor(), queryFn: getTwoFactor })

export function useTwoFactor() {
  return useQuery(getTwoFactorQueryOptions())
}

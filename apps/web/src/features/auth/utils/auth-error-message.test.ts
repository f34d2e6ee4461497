import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { PASSWORD, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'
import { authErrorMessage, isUnconfirmed } from './auth-error-message'

// The errors come from the real auth server, so a renamed code shows up here.
describe('authErrorMessage', () => {
  it('explains a wrong password', async () => {
    const { email } = await signUpAs('mapper')
    await signOutLocally()
    const { error } = await supabase.auth.signInWithPassword({ email, password: 'wrong password' })
    expect(error?.code).toBe('invalid_credentials')
    expect(authErrorMessage(error)).toMatch(/don’t match/)
  })

  it('explains an address that is not confirmed yet', async () => {
    const email = uniqueEmail('early')
    await supabase.auth.signUp({ email, password: PASSWORD })
    const { error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD })
    expect(error?.code).toBe('email_not_confirmed')
    expect(isUnconfirmed(error)).toBe(true)
    expect(authErrorMessage(error)).toMatch(/Confirm your email address first/)
  })

  it('explains a taken email', async () => {
    const { email } = await signUpAs('taken')
    await signUpAs('mover')
    const { error } = await supabase.auth.updateUser({ email })
    expect(error?.code).toBe('email_exists')
    expect(isUnconfirmed(error)).toBe(false)
    expect(authErrorMessage(error)).toMatch(/already exists/)
  })

  it('explains a weak password', async () => {
    const { error } = await supabase.auth.signUp({ email: uniqueEmail(), password: 'abc' })
    expect(error?.code).toBe('weak_password')
    expect(authErrorMessage(error)).toMatch(/too weak/)
  })

  it('falls back to a generic sentence for anything else', () => {
    expect(authErrorMessage(new Error('boom'))).toBe('Something went wrong. Please try again.')
  })
})

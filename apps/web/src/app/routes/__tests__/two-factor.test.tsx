import { createClient } from '@supabase/supabase-js'
import { screen, waitFor, within } from '@testing-library/react'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { currentCode, nextCode } from '@/testing/totp'
import {
  confirmByMail,
  inviteByEmail,
  PASSWORD,
  signOutLocally,
  signUpAs,
  uniqueEmail,
} from '@/testing/users'

const aal = async () => decodeJwt((await supabase.auth.getSession()).data.session!.access_token).aal

/** Adds an authenticator app through supabase-js; the app's session is then AAL2. */
async function enrolDirectly() {
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Phone',
  })
  if (error) throw error
  const verified = await supabase.auth.mfa.challengeAndVerify({
    factorId: data.id,
    code: currentCode(data.totp.secret),
  })
  if (verified.error) throw verified.error
  return data.totp.secret
}

describe('two-factor sign-in', () => {
  it('adds an authenticator app on the account page, confirmed with a code', async () => {
    await signUpAs('careful')
    const { user } = renderApp('/account')
    const card = (await screen.findByRole('heading', { name: 'Two-factor sign-in' })).closest(
      '[data-slot="card"]',
    ) as HTMLElement
    await user.click(await within(card).findByRole('button', { name: 'Add an authenticator app' }))
    const name = within(card).getByLabelText('App name')
    await user.clear(name)
    await user.type(name, 'Work phone')
    await user.click(within(card).getByRole('button', { name: 'Continue' }))

    expect(
      await within(card).findByRole('img', { name: /QR code to add Sourcebook/ }),
    ).toBeInTheDocument()
    const secret = within(card).getByTestId('totp-secret').textContent!
    expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/)

    const code = within(card).getByLabelText('Code from your authenticator app')
    await user.type(code, '12')
    await user.click(within(card).getByRole('button', { name: 'Turn on two-factor sign-in' }))
    expect(await within(card).findByText(/Enter the 6-digit code/)).toBeInTheDocument()
    const wrong = String((Number(currentCode(secret)) + 1) % 1_000_000).padStart(6, '0')
    await user.clear(code)
    await user.type(code, wrong)
    await user.click(within(card).getByRole('button', { name: 'Turn on two-factor sign-in' }))
    expect(await within(card).findByText(/That code is not right/)).toBeInTheDocument()
    expect(code).toHaveFocus()

    await user.clear(code)
    await user.type(code, currentCode(secret))
    await user.click(within(card).getByRole('button', { name: 'Turn on two-factor sign-in' }))
    expect(await screen.findByText('Two-factor sign-in is on')).toBeInTheDocument()
    const list = await within(card).findByRole('list', { name: 'Authenticator apps' })
    expect(list).toHaveTextContent('Work phone')
    expect(await aal()).toBe('aal2')

    // Removing it asks first, then leaves the account with the password alone.
    await user.click(within(card).getByRole('button', { name: 'Remove Work phone' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Work phone removed')).toBeInTheDocument()
    expect(
      await within(card).findByRole('button', { name: 'Add an authenticator app' }),
    ).toBeInTheDocument()
    expect((await supabase.auth.mfa.listFactors()).data!.totp).toEqual([])
  })

  it('asks for the code after the password when the account has an app', async () => {
    const me = await signUpAs('guarded')
    const secret = await enrolDirectly()
    await signOutLocally()
    const first = renderApp('/sign-in')
    await first.user.type(await screen.findByLabelText('Email'), me.email)
    await first.user.type(screen.getByLabelText('Password'), PASSWORD)
    await first.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument()
    expect(first.router.state.location.pathname).toBe('/sign-in')
    expect(await aal()).toBe('aal1')
    first.unmount()

    // Until the code is given, every signed-in page sends the session back here.
    const { user, router } = renderApp('/workspaces')
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    await user.type(
      await screen.findByLabelText('Code from your authenticator app'),
      nextCode(secret),
    )
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspaces'))
    expect(await aal()).toBe('aal2')
  })

  it('shows a member without an app why a workspace is closed, and opens it once they add one', async () => {
    await signUpAs('owner')
    await enrolDirectly()
    const { data: workspace } = await supabase
      .from('workspaces')
      .insert({ name: 'Vault' })
      .select()
      .single()
    const required = await supabase
      .from('workspaces')
      .update({ require_mfa: true })
      .eq('id', workspace!.id)
    expect(required.error).toBeNull()
    const email = uniqueEmail('member')
    const token = await inviteByEmail(workspace!.id, email)
    await signOutLocally()
    await supabase.auth.signUp({ email, password: PASSWORD })
    await confirmByMail(email)
    expect((await supabase.rpc('accept_invitation', { invitation_token: token })).error).toBeNull()

    const list = renderApp('/workspaces')
    const notice = await screen.findByRole('region', {
      name: 'A workspace requires two-factor sign-in',
    })
    expect(within(notice).getByRole('link', { name: 'Open Vault' })).toBeInTheDocument()
    list.unmount()

    const { user, router } = renderApp(`/w/${workspace!.id}/library`)
    expect(
      await screen.findByRole('heading', { name: 'Vault requires two-factor sign-in' }),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Set up two-factor sign-in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'))

    await enrolDirectly()
    const opened = renderApp(`/w/${workspace!.id}/library`)
    expect(await screen.findAllByText('Vault')).not.toHaveLength(0)
    expect(screen.queryByRole('heading', { name: /requires two-factor/ })).not.toBeInTheDocument()
    opened.unmount()
  })

  it('lets an owner require it from Settings only once their own session gave a code', async () => {
    await signUpAs('owner')
    const { data: workspace } = await supabase
      .from('workspaces')
      .insert({ name: 'Ledger' })
      .select()
      .single()
    const first = renderApp(`/w/${workspace!.id}/settings`)
    const card = (await screen.findByRole('heading', { name: 'Two-factor sign-in' })).closest(
      '[data-slot="card"]',
    ) as HTMLElement
    await first.user.click(within(card).getByRole('button', { name: 'Require two-factor sign-in' }))
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Add an authenticator app under Account → Security',
    )
    first.unmount()

    await enrolDirectly()
    const { user } = renderApp(`/w/${workspace!.id}/settings`)
    const again = (await screen.findByRole('heading', { name: 'Two-factor sign-in' })).closest(
      '[data-slot="card"]',
    ) as HTMLElement
    await user.click(within(again).getByRole('button', { name: 'Require two-factor sign-in' }))
    expect(await screen.findByText('Two-factor sign-in is now required')).toBeInTheDocument()
    expect(
      await within(again).findByRole('button', { name: 'Make it optional' }),
    ).toBeInTheDocument()
    const { data } = await supabase.from('workspaces').select('require_mfa').eq('id', workspace!.id)
    expect(data).toEqual([{ require_mfa: true }])
  })

  it('sends a member to sign in with the code when an app was added on another device', async () => {
    await signUpAs('owner')
    await enrolDirectly()
    const { data: workspace } = await supabase
      .from('workspaces')
      .insert({ name: 'Archive' })
      .select()
      .single()
    await supabase.from('workspaces').update({ require_mfa: true }).eq('id', workspace!.id)
    const email = uniqueEmail('member')
    const token = await inviteByEmail(workspace!.id, email)
    await signOutLocally()
    await supabase.auth.signUp({ email, password: PASSWORD })
    await confirmByMail(email)
    expect((await supabase.rpc('accept_invitation', { invitation_token: token })).error).toBeNull()

    // The member adds an app on their phone; this session's copy knows of none.
    const phone = createClient(env.SUPABASE_URL, env.SUPABASE_PUBLISHABLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
    })
    expect((await phone.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    const enrolled = await phone.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
    const secret = enrolled.data!.totp.secret
    const verified = await phone.auth.mfa.challengeAndVerify({
      factorId: enrolled.data!.id,
      code: currentCode(secret),
    })
    expect(verified.error).toBeNull()

    // Verifying it ended this password-only session at Auth, which its copy does not know:
    // the workspace sends the member to sign in with the code, not to add an app they have.
    const { user, router } = renderApp(`/w/${workspace!.id}/library`)
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect(screen.queryByRole('heading', { name: /requires two-factor/ })).not.toBeInTheDocument()
    await user.type(await screen.findByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await user.type(
      await screen.findByLabelText('Code from your authenticator app'),
      nextCode(secret),
    )
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`/w/${workspace!.id}/library`))
    expect(await screen.findAllByText('Archive')).not.toHaveLength(0)
    expect(screen.queryByRole('heading', { name: /requires two-factor/ })).not.toBeInTheDocument()
    expect(await aal()).toBe('aal2')
  })
})

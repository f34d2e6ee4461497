import { createClient } from '@supabase/supabase-js'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { env } from '@/config/env'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { mailsTo, PASSWORD, signInAs, signOutLocally, signUpAs } from '@/testing/users'

describe('account page', () => {
  it('is reached from the account menu, and renames the person for everyone', async () => {
    const me = await signUpAs('eddie')
    const { user, router } = renderApp('/workspaces')
    await user.click(await screen.findByRole('button', { name: /Account menu/ }))
    await user.click(await screen.findByRole('menuitem', { name: 'Account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'))

    const name = await screen.findByLabelText('Name')
    expect(name).toHaveValue('eddie')
    await user.clear(name)
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your name')
    await user.type(name, 'Eddie Example')
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByText('Name saved')).toBeInTheDocument()

    // The profile, which fellow members read, and the session's copy both carry it.
    const { data } = await supabase.from('profiles').select('display_name').eq('id', me.userId)
    expect(data).toEqual([{ display_name: 'Eddie Example' }])
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Account menu/ })).toHaveTextContent(
        'Eddie Example',
      ),
    )
  })

  it('changes the email only once the mailed links confirm it, and shows it pending', async () => {
    const me = await signUpAs('mover')
    const { user } = renderApp('/account')
    expect(await screen.findByText(me.email)).toBeInTheDocument()
    await user.type(screen.getByLabelText('New email'), 'not an address')
    await user.click(screen.getByRole('button', { name: 'Send confirmation links' }))
    expect(await screen.findByText('Enter a valid email address')).toBeInTheDocument()

    const next = me.email.replace('mover', 'moved')
    await user.clear(screen.getByLabelText('New email'))
    await user.type(screen.getByLabelText('New email'), next)
    await user.click(screen.getByRole('button', { name: 'Send confirmation links' }))
    const pending = await screen.findByRole('status')
    expect(pending).toHaveTextContent(`Waiting to confirm ${next}`)
    expect(screen.getByLabelText('New email')).toHaveValue('')

    // A link to each address (double confirmation), and the address is unchanged until then.
    expect((await mailsTo(next)).map((m) => m.subject)).toEqual(['Confirm Email Change'])
    expect((await mailsTo(me.email)).map((m) => m.subject)).toContain('Confirm Email Change')
    const { data } = await supabase.auth.getUser()
    expect(data.user?.email).toBe(me.email)
  })

  it('changes the password, which signs in from then on', async () => {
    const me = await signUpAs('keys')
    const { user } = renderApp('/account')
    const card = (await screen.findByRole('heading', { name: 'Password' })).closest(
      '[data-slot="card"]',
    ) as HTMLElement
    await user.type(within(card).getByLabelText('New password'), 'a whole new password')
    await user.type(within(card).getByLabelText('Repeat it'), 'a different one')
    await user.click(within(card).getByRole('button', { name: 'Set new password' }))
    expect(await within(card).findByText('The passwords don’t match')).toBeInTheDocument()
    await user.clear(within(card).getByLabelText('Repeat it'))
    await user.type(within(card).getByLabelText('Repeat it'), 'a whole new password')
    await user.click(within(card).getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText('Password changed')).toBeInTheDocument()
    expect(within(card).getByLabelText('New password')).toHaveValue('')

    await signOutLocally()
    await expect(signInAs(me.email)).rejects.toThrow()
    const { error } = await supabase.auth.signInWithPassword({
      email: me.email,
      password: 'a whole new password',
    })
    expect(error).toBeNull()
  })

  it('signs out of all devices, ending the other sessions too', async () => {
    const me = await signUpAs('everywhere')
    // A second device: its own session of the same account, kept apart from the app's.
    const other = createClient(env.SUPABASE_URL, env.SUPABASE_PUBLISHABLE_KEY, {
      auth: { persistSession: false, autoRefreshToken: false, storageKey: 'other-device' },
    })
    const signedIn = await other.auth.signInWithPassword({ email: me.email, password: PASSWORD })
    expect(signedIn.error).toBeNull()

    const { user, router } = renderApp('/account')
    await user.click(await screen.findByRole('button', { name: 'Sign out of all devices…' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect((await supabase.auth.getSession()).data.session).toBeNull()
    // The other device's refresh token no longer works.
    const refreshed = await other.auth.refreshSession()
    expect(refreshed.error).not.toBeNull()
  })

  it('sends a signed-out visitor to sign in and back', async () => {
    await signOutLocally()
    const { router } = renderApp('/account')
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/account')}`)
  })
})

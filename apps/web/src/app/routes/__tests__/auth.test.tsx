import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { mailboxUrl } from '@/config/env'
import { renderApp } from '@/testing/render-app'
import {
  confirmByMail,
  mailsTo,
  PASSWORD,
  signOutLocally,
  signUpAs,
  uniqueEmail,
} from '@/testing/users'

describe('accounts', () => {
  it('signs up from the form, asks for the mailed link, and lands on the workspace list', async () => {
    const { user, router } = renderApp('/sign-up')
    const email = uniqueEmail('ada')
    await user.type(await screen.findByLabelText('Name'), 'Ada')
    await user.type(screen.getByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Create account' }))

    // No session until the address is confirmed: the screen says where the link went.
    expect(await screen.findByText(/Check your inbox: we sent a link to/)).toHaveTextContent(email)
    expect(screen.getByRole('link', { name: 'dev mailbox' })).toHaveAttribute(
      'href',
      `${mailboxUrl}?email=${encodeURIComponent(email)}`,
    )
    expect((await supabase.auth.getSession()).data.session).toBeNull()
    const [mail] = await mailsTo(email)
    expect(mail?.subject).toBe('Confirm Your Signup')

    // Another mail on request, for one that went astray.
    await user.click(screen.getByRole('button', { name: 'Send the link again' }))
    expect(await screen.findByText('Sent again. Use the link in the newest mail.')).toBeVisible()
    expect(await mailsTo(email)).toHaveLength(2)

    await confirmByMail(email)
    await router.navigate('/workspaces')
    expect(await screen.findByText('No workspaces yet')).toBeInTheDocument()
    const { data } = await supabase.auth.getSession()
    expect(data.session?.user.email).toBe(email)
  })

  it('tells someone who signs in before confirming, and sends the link again', async () => {
    const email = uniqueEmail('early')
    const { error } = await supabase.auth.signUp({ email, password: PASSWORD })
    expect(error).toBeNull()
    const { user } = renderApp('/sign-in')
    await user.type(await screen.findByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Confirm your email address first')
    await user.click(screen.getByRole('button', { name: 'Send the link again' }))
    expect(await screen.findByText('Sent again. Use the link in the newest mail.')).toBeVisible()
    const mails = await mailsTo(email)
    expect(mails.map((m) => m.subject)).toEqual(['Confirm Your Signup', 'Confirm Your Signup'])
  })

  it('does not tell a stranger whether an address already has an account', async () => {
    const { email } = await signUpAs('grace')
    await signOutLocally()
    const { user } = renderApp('/sign-up')
    await user.type(await screen.findByLabelText('Name'), 'Grace again')
    await user.type(screen.getByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    // The same answer as for a new address, and no session for whoever typed it.
    expect(await screen.findByText(/Check your inbox: we sent a link to/)).toHaveTextContent(email)
    expect((await supabase.auth.getSession()).data.session).toBeNull()
  })

  it('refuses a short password before asking the server', async () => {
    const { user } = renderApp('/sign-up')
    await user.type(await screen.findByLabelText('Name'), 'Short')
    await user.type(screen.getByLabelText('Email'), uniqueEmail())
    await user.type(screen.getByLabelText('Password'), 'abc')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Use at least 8 characters')).toBeInTheDocument()
    // The field is marked invalid and described by its message, for screen readers.
    const password = screen.getByLabelText('Password')
    expect(password).toHaveAttribute('aria-invalid', 'true')
    expect(password).toHaveAccessibleDescription('Use at least 8 characters')
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'false')
  })

  it('explains wrong credentials, then signs in and returns to the page asked for', async () => {
    const { email } = await signUpAs('linus')
    await signOutLocally()
    const { user, router } = renderApp('/workspaces')

    // Signed out: the protected page sends us to sign in, remembering where we were going.
    await screen.findByRole('heading', { name: 'Sign in to Sourcebook' })
    expect(router.state.location.search).toBe('?next=%2Fworkspaces')

    await user.type(screen.getByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), 'not the password')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That email and password don’t match',
    )

    await user.clear(screen.getByLabelText('Password'))
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/workspaces'))
    expect(await screen.findByRole('heading', { name: 'Workspaces' })).toBeInTheDocument()
  })

  it('signs out from the account menu', async () => {
    await signUpAs('margaret')
    const { user, router } = renderApp('/workspaces')
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }))
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    const { data } = await supabase.auth.getSession()
    expect(data.session).toBeNull()
  })
})

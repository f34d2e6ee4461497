import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { supabase } from '@/lib/supabase'
import { renderApp } from '@/testing/render-app'
import { PASSWORD, signOutLocally, signUpAs, uniqueEmail } from '@/testing/users'

describe('accounts', () => {
  it('signs up from the form and lands on the empty workspace list', async () => {
    const { user, router } = renderApp('/sign-up')
    const email = uniqueEmail('ada')
    await user.type(await screen.findByLabelText('Name'), 'Ada')
    await user.type(screen.getByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Create account' }))

    expect(await screen.findByText('No workspaces yet')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/workspaces')
    const { data } = await supabase.auth.getSession()
    expect(data.session?.user.email).toBe(email)
  })

  it('says in plain words when the email is taken', async () => {
    const { email } = await signUpAs('grace')
    await signOutLocally()
    const { user } = renderApp('/sign-up')
    await user.type(await screen.findByLabelText('Name'), 'Grace again')
    await user.type(screen.getByLabelText('Email'), email)
    await user.type(screen.getByLabelText('Password'), PASSWORD)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this email already exists',
    )
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

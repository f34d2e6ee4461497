import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config/config.ts'

// How [auth.rate_limit] and the AUTH_RATE_LIMIT_* variables become the auth limits.

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function limitsOf(toml: string, env: NodeJS.ProcessEnv = {}) {
  const workdir = mkdtempSync(join(tmpdir(), 'localbase-limits-config-'))
  dirs.push(workdir)
  mkdirSync(join(workdir, 'supabase'))
  writeFileSync(join(workdir, 'supabase', 'config.toml'), toml)
  return loadConfig({ workdir, env }).auth.rateLimit
}

const project = `[auth.rate_limit]
sign_in_sign_ups = 12
token_refresh = 40
`

describe('auth rate limits', () => {
  it("takes the project's values, and the CLI's defaults for the rest", () => {
    expect(limitsOf(project)).toEqual({
      emailSent: null,
      signInSignUps: 12,
      tokenRefresh: 40,
      tokenVerifications: 30,
      anonymousUsers: 30,
    })
  })

  it('lets AUTH_RATE_LIMIT_<KEY> override a value; an empty one leaves it alone', () => {
    const limits = limitsOf(project, {
      AUTH_RATE_LIMIT_TOKEN_REFRESH: '900',
      AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '5',
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: '',
    })
    expect(limits).toMatchObject({ signInSignUps: 12, tokenRefresh: 900, tokenVerifications: 5 })
  })

  it('counts mail only with SMTP, and refuses a value that is not a whole number', () => {
    expect(
      limitsOf(project, { SMTP_HOST: 'smtp.example.test', SMTP_ADMIN_EMAIL: 'a@example.test' })
        .emailSent,
    ).toBe(2)
    expect(() => limitsOf(project, { AUTH_RATE_LIMIT_TOKEN_REFRESH: 'lots' })).toThrow(
      'AUTH_RATE_LIMIT_TOKEN_REFRESH: expected a whole number of at least 0, got "lots"',
    )
  })
})

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config/config.ts'

// How [auth.email.smtp] and the SMTP_* variables become the mail settings.

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** The SMTP settings a project with this config.toml gets in this environment. */
function smtpOf(toml: string, env: NodeJS.ProcessEnv = {}) {
  const workdir = mkdtempSync(join(tmpdir(), 'localbase-smtp-config-'))
  dirs.push(workdir)
  mkdirSync(join(workdir, 'supabase'))
  writeFileSync(join(workdir, 'supabase', 'config.toml'), toml)
  return loadConfig({ workdir, env }).auth.smtp
}

const cliExample = `[auth.email.smtp]
enabled = true
host = "smtp.sendgrid.net"
port = 587
user = "apikey"
pass = "env(SENDGRID_API_KEY)"
admin_email = "admin@email.com"
sender_name = "Admin"
`

describe('SMTP settings', () => {
  it('reads the CLI template’s example, resolving env() from the environment', () => {
    expect(smtpOf(cliExample, { SENDGRID_API_KEY: 'SG.key' })).toEqual({
      host: 'smtp.sendgrid.net',
      port: 587,
      user: 'apikey',
      pass: 'SG.key',
      adminEmail: 'admin@email.com',
      senderName: 'Admin',
    })
  })

  it('is off without the section, with enabled = false, and by default', () => {
    expect(smtpOf('')).toBeNull()
    expect(smtpOf(cliExample.replace('enabled = true', 'enabled = false'))).toBeNull()
    expect(smtpOf(cliExample.replace('enabled = true\n', ''))).toBeNull()
  })

  it('lets each SMTP_* variable override its field, and SMTP_HOST alone turn it on', () => {
    const env = {
      SENDGRID_API_KEY: 'SG.key',
      SMTP_HOST: 'mail.internal',
      SMTP_PORT: '2525',
      SMTP_SENDER_NAME: 'Sourcebook',
    }
    expect(smtpOf(cliExample, env)).toMatchObject({
      host: 'mail.internal',
      port: 2525,
      user: 'apikey',
      pass: 'SG.key',
      senderName: 'Sourcebook',
    })
    expect(
      smtpOf('', {
        SMTP_HOST: 'mail.internal',
        SMTP_USER: 'u',
        SMTP_PASS: 'p',
        SMTP_ADMIN_EMAIL: 'noreply@example.test',
      }),
    ).toEqual({
      host: 'mail.internal',
      port: 587,
      user: 'u',
      pass: 'p',
      adminEmail: 'noreply@example.test',
      senderName: '',
    })
  })

  it('refuses to start with settings that could not send', () => {
    expect(() => smtpOf(cliExample)).toThrow(
      '[auth.email.smtp] pass is env(SENDGRID_API_KEY), but SENDGRID_API_KEY is not set',
    )
    expect(() => smtpOf('[auth.email.smtp]\nenabled = true\nadmin_email = "a@b.co"\n')).toThrow(
      /has no host/,
    )
    expect(() => smtpOf(cliExample, { SENDGRID_API_KEY: 'k', SMTP_PORT: '70000' })).toThrow(
      'invalid SMTP port "70000"',
    )
    expect(() => smtpOf('', { SMTP_HOST: 'mail.internal' })).toThrow(/admin_email/)
  })
})

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mailTemplates, render } from '../src/auth/templates.ts'

const data = {
  ConfirmationURL: 'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=invite',
  Token: '123456',
  TokenHash: 'abc',
  SiteURL: 'http://127.0.0.1:54321',
  RedirectTo: 'http://127.0.0.1:54321/invite/x',
  Email: 'vera@example.com',
  Data: { workspace_name: 'Tom & Jerry <Ltd>', invited_by_name: 'Ada' },
}

describe('mail templates', () => {
  const workdir = mkdtempSync(join(tmpdir(), 'templates-'))

  it('reads subject and body as the CLI does, the body from content_path', () => {
    writeFileSync(join(workdir, 'invite.html'), '<a href="{{ .ConfirmationURL }}">Join</a>')
    const templates = mailTemplates(
      { invite: { subject: 'Join {{ .Data.workspace_name }}', content_path: './invite.html' } },
      workdir,
    )
    expect(templates.invite).toEqual({
      subject: 'Join {{ .Data.workspace_name }}',
      html: '<a href="{{ .ConfirmationURL }}">Join</a>',
    })
    expect(templates.signup).toBeUndefined()
  })

  it('escapes values in HTML, not in the subject, and renders missing keys as nothing', () => {
    expect(render('{{ .Data.workspace_name }}{{ .Data.nope }}', data, 'text')).toBe(
      'Tom & Jerry <Ltd>',
    )
    expect(
      render('<b>{{.Data.workspace_name}}</b> <a href="{{ .ConfirmationURL }}">', data, 'html'),
    ).toBe(
      '<b>Tom &#38; Jerry &#60;Ltd&#62;</b> <a href="http://127.0.0.1:54321/auth/v1/verify?token=abc&#38;type=invite">',
    )
  })

  it('renders a condition on a field, with or without else, as Go does', () => {
    const subject =
      '{{ if .Data.invited_by_name }}{{ .Data.invited_by_name }} invited you{{ else }}Sign in{{ end }}'
    expect(mailTemplates({ magic_link: { subject } }, workdir).magiclink?.subject).toBe(subject)
    expect(render(subject, data, 'text')).toBe('Ada invited you')
    for (const value of [undefined, '', 0, false, null]) {
      const without = { ...data, Data: { invited_by_name: value } }
      expect(render(subject, without, 'text')).toBe('Sign in')
    }
    expect(
      render(
        'a{{- if .Data.nope -}} b{{ end }}c {{ if .Email }}{{ .Email }}{{ end }}',
        data,
        'html',
      ),
    ).toBe('ac vera@example.com')
  })

  it('refuses at start-up what it cannot render, and a missing file', () => {
    for (const subject of [
      '{{ range .Data.x }}hi{{ end }}',
      '{{ if .Data.x }}{{ if .Email }}nested{{ end }}{{ end }}',
      '{{ if eq .Data.x "y" }}hi{{ end }}',
      '{{ if .Data.x }}unclosed',
      '{{ .Data.x | upper }}',
    ]) {
      expect(() => mailTemplates({ invite: { subject } }, workdir), subject).toThrow(
        '[auth.email.template.invite] subject: localbase renders only',
      )
    }
    expect(() =>
      mailTemplates({ magic_link: { content_path: './missing.html' } }, workdir),
    ).toThrow(/\[auth.email.template.magic_link\] content_path: .*missing.html does not exist/)
  })
})

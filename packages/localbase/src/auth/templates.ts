import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { MailKind } from './mailer.ts'

// Custom mail templates, as the Supabase CLI reads `[auth.email.template.<kind>]` (`subject`,
// `content_path` relative to the project folder) and GoTrue renders them with Go's templates:
// the subject as text, the body as HTML. localbase understands the part of Go's syntax mail
// templates use, `{{ .Name }}` and `{{ .Data.key }}`; anything else is refused at start-up
// rather than mailed half-rendered.

/** The CLI's section names for each kind of mail. */
const sections: Record<TemplatedKind, string> = {
  signup: 'confirmation',
  invite: 'invite',
  magiclink: 'magic_link',
  recovery: 'recovery',
}

/**
 * Email changes keep the built-in mail: they are composed for two addresses at once; so does
 * the reauthentication code.
 */
export type TemplatedKind = Exclude<MailKind, 'email_change' | 'reauthentication'>

export type MailTemplate = { subject: string | null; html: string | null }

export type MailTemplates = Partial<Record<TemplatedKind, MailTemplate>>

/** What GoTrue hands a template: the link, the code, the addresses and the user's metadata. */
export type TemplateData = {
  ConfirmationURL: string
  Token: string
  TokenHash: string
  SiteURL: string
  RedirectTo: string
  Email: string
  Data: Record<string, unknown>
}

const action = /{{-?\s*(.*?)\s*-?}}/g
const field = /^\.(ConfirmationURL|Token|TokenHash|SiteURL|RedirectTo|Email)$|^\.Data\.(\w+)$/

/** Throws unless every action in the template is one localbase can render. */
function check(template: string, where: string): string {
  for (const [, expression] of template.matchAll(action)) {
    if (!field.test(expression!)) {
      throw new Error(
        `${where}: localbase renders only {{ .Name }} and {{ .Data.key }}, not {{ ${expression} }}`,
      )
    }
  }
  return template
}

/** Reads `[auth.email.template.*]` from config.toml; content paths are read now. */
export function mailTemplates(section: Record<string, unknown>, workdir: string): MailTemplates {
  const templates: MailTemplates = {}
  for (const [kind, name] of Object.entries(sections) as [TemplatedKind, string][]) {
    const raw = section[name] as { subject?: unknown; content_path?: unknown } | undefined
    if (!raw) continue
    const where = `[auth.email.template.${name}]`
    const subject = typeof raw.subject === 'string' ? check(raw.subject, `${where} subject`) : null
    let html: string | null = null
    if (typeof raw.content_path === 'string' && raw.content_path) {
      const path = resolve(workdir, raw.content_path)
      try {
        html = check(readFileSync(path, 'utf8'), `${where} ${raw.content_path}`)
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause
        throw new Error(`${where} content_path: ${path} does not exist`, { cause })
      }
    }
    templates[kind] = { subject, html }
  }
  return templates
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

function value(expression: string, data: TemplateData): string {
  const [, name, key] = field.exec(expression) ?? []
  // A missing key renders as nothing, as html/template does.
  const found = key ? data.Data[key] : data[name as keyof TemplateData]
  return found === undefined || found === null ? '' : String(found)
}

/** Renders a template: HTML-escaped for a body, verbatim for a subject (Go's text/template). */
export function render(template: string, data: TemplateData, as: 'html' | 'text'): string {
  return template.replace(action, (_, expression: string) => {
    const text = value(expression, data)
    return as === 'html' ? escapeHtml(text) : text
  })
}

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { MailKind } from './mailer.ts'

// Custom mail templates, as the Supabase CLI reads `[auth.email.template.<kind>]` (`subject`,
// `content_path` relative to the project folder) and GoTrue renders them with Go's templates:
// the subject as text, the body as HTML. localbase understands the part of Go's syntax mail
// templates use, `{{ .Name }}` and `{{ .Data.key }}`, and a condition on one of them,
// `{{ if .Data.key }}…{{ else }}…{{ end }}` (not nested; the else is optional), true as in Go
// when the value is set and not empty, false or zero. Anything else is refused at start-up
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
// {{ if .X }} then {{ else }} otherwise {{ end }}, with no action but fields inside.
const condition =
  /{{-?\s*if\s+(\.[\w.]+)\s*-?}}((?:(?!{{-?\s*(?:if|else|end)\b)[\s\S])*?)(?:{{-?\s*else\s*-?}}((?:(?!{{-?\s*(?:if|else|end)\b)[\s\S])*?))?{{-?\s*end\s*-?}}/g

/** Throws unless every action in the template is one localbase can render. */
function check(template: string, where: string): string {
  // A condition's test must be a field, as must every action left in and around it.
  const flat = template.replace(condition, (_, test: string, then: string, otherwise = '') =>
    [`{{ ${test} }}`, then, otherwise].join(''),
  )
  for (const [, expression] of flat.matchAll(action)) {
    if (!field.test(expression!)) {
      throw new Error(
        `${where}: localbase renders only {{ .Name }}, {{ .Data.key }} and {{ if … }}…{{ else }}…{{ end }} on one of them, not {{ ${expression} }}`,
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

function lookup(expression: string, data: TemplateData): unknown {
  const [, name, key] = field.exec(expression) ?? []
  return key ? data.Data[key] : data[name as keyof TemplateData]
}

function value(expression: string, data: TemplateData): string {
  const found = lookup(expression, data)
  // A missing key renders as nothing, as html/template does.
  return found === undefined || found === null ? '' : String(found)
}

/** Go's truth: not unset, empty, false or zero. */
const truthy = (found: unknown) =>
  found !== undefined && found !== null && found !== '' && found !== false && found !== 0

/** Renders a template: HTML-escaped for a body, verbatim for a subject (Go's text/template). */
export function render(template: string, data: TemplateData, as: 'html' | 'text'): string {
  const chosen = template.replace(condition, (_, test: string, then: string, otherwise = '') =>
    truthy(lookup(test, data)) ? then : otherwise,
  )
  return chosen.replace(action, (_, expression: string) => {
    const text = value(expression, data)
    return as === 'html' ? escapeHtml(text) : text
  })
}

import type { LocalbaseConfig } from '../config/config.ts'

// GoTrue's IsRedirectURLValid (internal/utilities/request.go): the site itself, loopback
// addresses, or a match of an additional_redirect_urls glob; anything else falls back to
// the site URL.

function globToRegExp(pattern: string): RegExp {
  let source = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch === '*' && pattern[i + 1] === '*') {
      source += '.*'
      i++
    } else if (ch === '*') source += '[^./]*'
    else if (ch === '?') source += '[^./]'
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${source}$`)
}

const loopbackHost = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

function isAllowed(config: LocalbaseConfig['auth'], candidate: string): boolean {
  let base: URL
  let target: URL
  try {
    base = new URL(config.siteUrl)
    target = new URL(candidate)
  } catch {
    return false
  }
  const localhost = loopbackHost.test(target.hostname)
  if (
    base.hostname === target.hostname &&
    base.protocol === target.protocol &&
    (base.port === target.port || localhost)
  ) {
    return true
  }
  if (localhost && target.hostname !== 'localhost') return true
  const withoutFragment = candidate.split('#')[0]!
  return config.additionalRedirectUrls.some((pattern) =>
    globToRegExp(pattern).test(withoutFragment),
  )
}

/** The redirect to use: the requested one when allowed, otherwise the site URL. */
export function redirectTarget(config: LocalbaseConfig['auth'], requested?: string | null): string {
  return requested && isAllowed(config, requested) ? requested : config.siteUrl
}

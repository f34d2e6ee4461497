import { BlockList, isIP, isIPv4 } from 'node:net'

// One spelling per address, so that a limit keyed by address cannot be dodged by writing the
// same address another way (`::ffff:10.0.0.1` for `10.0.0.1`, `2001:DB8:0::1` for `2001:db8::1`).

/** The canonical form of an IP address, or null when `text` is not one. */
export function canonicalIp(text: string | undefined | null): string | null {
  // A link-local zone (`fe80::1%eth0`) names the interface, not the host.
  const value = text?.trim().split('%')[0] ?? ''
  if (isIPv4(value)) return value
  if (isIP(value) !== 6) return null
  // The WHATWG URL parser compresses and lower-cases IPv6 hosts (RFC 5952).
  const v6 = new URL(`http://[${value}]`).hostname.slice(1, -1)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6)
  if (!mapped) return v6
  const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)]
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
}

/**
 * One `X-Forwarded-For` hop as an address: proxies may add a port (`1.2.3.4:5678`,
 * `[2001:db8::1]:443`). Null when the hop is not an address at all.
 */
export function parseHop(hop: string): string | null {
  const text = hop.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1]
  if (bracketed) return canonicalIp(bracketed)
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(text)?.[1]
  return canonicalIp(withPort ?? text)
}

/** The operator's trusted proxies: IPv4 and IPv6 addresses and CIDR ranges. */
export class TrustedProxies {
  private readonly list = new BlockList()
  readonly entries: string[]

  /** Parses a comma-separated list such as `10.0.0.0/8, 127.0.0.1, ::1`; throws on a bad entry. */
  constructor(spec: string) {
    this.entries = spec
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
    for (const entry of this.entries) {
      const [address = '', prefix, ...rest] = entry.split('/')
      const ip = canonicalIp(address)
      const family = ip && isIPv4(ip) ? 'ipv4' : 'ipv6'
      const bits = prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix)
      const max = family === 'ipv4' ? 32 : 128
      if (!ip || rest.length || !/^\d*$/.test(prefix ?? '') || prefix === '' || bits > max) {
        throw new Error(
          `TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)`,
        )
      }
      this.list.addSubnet(ip, bits, family)
    }
  }

  /** Whether a canonical address (see canonicalIp) belongs to a trusted proxy. */
  has(address: string): boolean {
    return this.list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')
  }
}

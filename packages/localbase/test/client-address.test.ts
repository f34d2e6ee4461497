import { describe, expect, it } from 'vitest'
import { clientAddressOf } from '../src/gateway/client-address.ts'
import { canonicalIp, parseHop, TrustedProxies } from '../src/gateway/ip-address.ts'

// The gateway's address parsing and TRUSTED_PROXIES matching, as pure functions.

describe('canonicalIp', () => {
  it('writes each address one way', () => {
    expect(canonicalIp('10.0.0.1')).toBe('10.0.0.1')
    expect(canonicalIp(' ::ffff:10.0.0.1 ')).toBe('10.0.0.1')
    expect(canonicalIp('::FFFF:a00:1')).toBe('10.0.0.1')
    expect(canonicalIp('2001:0DB8:0:0::1')).toBe('2001:db8::1')
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80::1')
    expect(canonicalIp('::1')).toBe('::1')
  })

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '10.0.0.256', '010.0.0.1', '1.2.3', 'cafe', undefined]) {
      expect(canonicalIp(text)).toBeNull()
    }
  })
})

describe('parseHop', () => {
  it('drops the ports proxies may add', () => {
    expect(parseHop(' 203.0.113.7:51234')).toBe('203.0.113.7')
    expect(parseHop('[2001:db8::7]:443')).toBe('2001:db8::7')
    expect(parseHop('[2001:db8::7]')).toBe('2001:db8::7')
    expect(parseHop('unknown')).toBeNull()
    expect(parseHop('_hidden')).toBeNull()
  })
})

describe('TrustedProxies', () => {
  it('matches addresses and CIDR ranges of both families', () => {
    const trusted = new TrustedProxies(' 10.0.0.0/8, 192.0.2.1 ,2001:db8::/32,::1')
    expect(trusted.entries).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32', '::1'])
    expect(trusted.has('10.255.1.2')).toBe(true)
    expect(trusted.has('11.0.0.1')).toBe(false)
    expect(trusted.has('192.0.2.1')).toBe(true)
    expect(trusted.has('192.0.2.2')).toBe(false)
    expect(trusted.has('2001:db8:ffff::1')).toBe(true)
    expect(trusted.has('2001:db9::1')).toBe(false)
    expect(trusted.has('::1')).toBe(true)
    expect(trusted.has('127.0.0.1')).toBe(false)
  })

  it('trusts nothing by default, loopback included', () => {
    const none = new TrustedProxies('')
    expect(none.entries).toEqual([])
    expect(none.has('127.0.0.1')).toBe(false)
    expect(none.has('::1')).toBe(false)
  })

  it('refuses an entry that is not an address or range, naming it', () => {
    for (const bad of [
      '10.0.0.0/33',
      '::/129',
      'proxy.local',
      '10.0.0.1/',
      '10.0.0.0/8/8',
      '1/x',
    ]) {
      expect(() => new TrustedProxies(`127.0.0.1, ${bad}`)).toThrow(`"${bad}"`)
    }
  })
})

describe('clientAddressOf', () => {
  const trusted = new TrustedProxies('10.0.0.0/8, ::1')

  it('is the peer when the peer is not a trusted proxy, whatever it forwards', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9')
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', trusted)).toBe('127.0.0.1')
    expect(clientAddressOf('::ffff:203.0.113.9', undefined, trusted)).toBe('203.0.113.9')
  })

  it('is the right-most hop that is not a trusted proxy', () => {
    // The client wrote "1.1.1.1, 2.2.2.2" itself; the trusted proxies appended the rest.
    const chain = '1.1.1.1, 2.2.2.2, 198.51.100.7, 10.1.1.1'
    expect(clientAddressOf('10.0.0.5', chain, trusted)).toBe('198.51.100.7')
    expect(clientAddressOf('::1', '2001:DB8::0:7', trusted)).toBe('2001:db8::7')
    expect(clientAddressOf('10.0.0.5', '198.51.100.7:4711', trusted)).toBe('198.51.100.7')
  })

  it('stops at the proxy that reported a hop that is not an address', () => {
    expect(clientAddressOf('10.0.0.5', 'garbage', trusted)).toBe('10.0.0.5')
    expect(clientAddressOf('10.0.0.5', '198.51.100.7, garbage, 10.2.2.2', trusted)).toBe('10.2.2.2')
  })

  it('is the left-most hop when every hop is a trusted proxy, and the peer without a header', () => {
    expect(clientAddressOf('10.0.0.5', '10.9.9.9, 10.8.8.8', trusted)).toBe('10.9.9.9')
    expect(clientAddressOf('10.0.0.5', undefined, trusted)).toBe('10.0.0.5')
    expect(clientAddressOf('10.0.0.5', '', trusted)).toBe('10.0.0.5')
  })
})

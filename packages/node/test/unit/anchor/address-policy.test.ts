import { describe, expect, it } from 'vitest'
import {
  ANY_ADDRESS_POLICY, isPublicAddress, parseUrlAllowance, publicOnlyPolicy, specialRangeOf
} from '../../../src/anchor/index.js'

/*
 * anchors-v1 §9: which addresses a url check of a peer's anchor may connect to. Vectors: each
 * address with the range (CIDR) expected to refuse it, or null for a public address.
 */

const VECTORS: ReadonlyArray<[address: string, range: string | null]> = [
  // IPv4
  ['0.0.0.0', '0.0.0.0/8'],
  ['0.1.2.3', '0.0.0.0/8'],
  ['127.0.0.1', '127.0.0.0/8'],
  ['127.255.255.254', '127.0.0.0/8'],
  ['10.0.0.1', '10.0.0.0/8'],
  ['10.255.255.255', '10.0.0.0/8'],
  ['172.16.0.1', '172.16.0.0/12'],
  ['172.31.255.255', '172.16.0.0/12'],
  ['172.15.255.255', null],
  ['172.32.0.1', null],
  ['192.168.1.1', '192.168.0.0/16'],
  ['100.64.0.1', '100.64.0.0/10'],
  ['100.127.255.255', '100.64.0.0/10'],
  ['100.128.0.1', null],
  ['169.254.169.254', '169.254.0.0/16'],
  ['169.254.0.1', '169.254.0.0/16'],
  ['192.0.0.8', '192.0.0.0/24'],
  ['192.0.2.1', '192.0.2.0/24'],
  ['198.18.0.1', '198.18.0.0/15'],
  ['198.51.100.7', '198.51.100.0/24'],
  ['203.0.113.9', '203.0.113.0/24'],
  ['224.0.0.1', '224.0.0.0/4'],
  ['239.255.255.250', '224.0.0.0/4'],
  ['240.0.0.1', '240.0.0.0/4'],
  ['255.255.255.255', '240.0.0.0/4'],
  ['8.8.8.8', null],
  ['1.1.1.1', null],
  ['93.184.216.34', null],
  ['11.0.0.1', null],
  // IPv6
  ['::', '::/128'],
  ['::1', '::1/128'],
  ['0:0:0:0:0:0:0:1', '::1/128'],
  ['::10.0.0.1', '::/96'],
  ['fe80::1', 'fe80::/10'],
  ['febf:ffff::1', 'fe80::/10'],
  ['fe80::1%eth0', '%scope'],
  ['fc00::1', 'fc00::/7'],
  ['fd12:3456:789a::1', 'fc00::/7'],
  ['fec0::1', 'fec0::/10'],
  ['ff02::1', 'ff00::/8'],
  ['64:ff9b::a00:1', '64:ff9b::/96'],
  ['64:ff9b::808:808', '64:ff9b::/96'],
  ['2001::1', '2001::/23'],
  ['2001:db8::1', '2001:db8::/32'],
  ['2002:a00:1::1', '2002::/16'],
  ['100::1', '100::/64'],
  ['4000::1', '2000::/3'],
  ['2606:4700:4700::1111', null],
  ['2a00:1450:4001:81b::200e', null],
  ['2001:4860:4860::8888', null],
  // IPv4-mapped IPv6: judged by the IPv4 address, in either notation
  ['::ffff:127.0.0.1', '127.0.0.0/8'],
  ['::ffff:7f00:1', '127.0.0.0/8'],
  ['::ffff:10.1.2.3', '10.0.0.0/8'],
  ['::ffff:169.254.169.254', '169.254.0.0/16'],
  ['::ffff:0.0.0.0', '0.0.0.0/8'],
  ['::ffff:8.8.8.8', null],
  // not an address at all
  ['localhost', 'localhost'],
  ['', '']
]

describe('specialRangeOf (anchors-v1 §9 vectors)', () => {
  for (const [address, range] of VECTORS) {
    it(`${address === '' ? '(empty)' : address} → ${range ?? 'public'}`, () => {
      expect(specialRangeOf(address)?.cidr ?? null, address).toBe(range)
      expect(isPublicAddress(address), address).toBe(range === null)
    })
  }
})

describe('publicOnlyPolicy', () => {
  it('refuses every special address and names its range; passes public ones', () => {
    const policy = publicOnlyPolicy()
    expect(policy.refusalOf('example.org', '93.184.216.34')).toBeNull()
    expect(policy.refusalOf('metadata.internal', '169.254.169.254')).toEqual({
      address: '169.254.169.254',
      range: { cidr: '169.254.0.0/16', name: expect.stringMatching(/link-local.*metadata/) as unknown as string }
    })
    expect(policy.refusalOf('localhost', '::1')?.range.cidr).toBe('::1/128')
  })

  it('lets through the hosts, addresses and ranges an operator allowed, and nothing next to them', () => {
    const policy = publicOnlyPolicy(parseUrlAllowance(['Intranet.Example', '10.1.0.0/16', '127.0.0.1', 'fd00::/8']))
    expect(policy.refusalOf('intranet.example', '10.9.9.9')).toBeNull()
    expect(policy.refusalOf('INTRANET.example.', '192.168.1.1')).toBeNull()
    expect(policy.refusalOf('other.example', '10.1.200.3')).toBeNull()
    expect(policy.refusalOf('other.example', '::ffff:10.1.200.3')).toBeNull() // mapped, in the IPv4 range
    expect(policy.refusalOf('other.example', '10.2.0.1')?.range.cidr).toBe('10.0.0.0/8')
    expect(policy.refusalOf('127.0.0.1', '127.0.0.1')).toBeNull()
    expect(policy.refusalOf('127.0.0.2', '127.0.0.2')?.range.cidr).toBe('127.0.0.0/8')
    expect(policy.refusalOf('v6.example', 'fd00::5')).toBeNull()
    expect(policy.refusalOf('v6.example', 'fc00::5')?.range.cidr).toBe('fc00::/7')
    expect(policy.refusalOf('intranet.example.org', '10.9.9.9')?.range.cidr).toBe('10.0.0.0/8') // names match whole
  })

  it('the local policy refuses nothing', () => {
    for (const [address] of VECTORS) expect(ANY_ADDRESS_POLICY.refusalOf('h', address)).toBeNull()
  })
})

describe('parseUrlAllowance', () => {
  it('accepts host names, addresses and CIDR ranges', () => {
    const allowance = parseUrlAllowance(['localhost', 'intranet.example', '10.0.0.0/8', '::1', 'fd00::/8', '192.168.1.7/32'])
    expect([...allowance.hosts]).toEqual(['localhost', 'intranet.example'])
    expect(allowance.addresses.check('10.200.0.1', 'ipv4')).toBe(true)
    expect(allowance.addresses.check('::1', 'ipv6')).toBe(true)
    expect(allowance.addresses.check('192.168.1.8', 'ipv4')).toBe(false)
  })

  for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/8/1', 'intranet/8', '10.0.0.0/', '10.0.0.0/x', 'host:8080', 'user@host', 'a b', 'http://host/', '']) {
    it(`refuses ${JSON.stringify(bad)} with USAGE`, () => {
      expect(() => parseUrlAllowance([bad])).toThrow(expect.objectContaining({ code: 'USAGE' }))
    })
  }
})

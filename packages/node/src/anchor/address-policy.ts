import { BlockList, isIP } from 'node:net'
import { IsnadError } from '../errors/index.js'

/*
 * Which addresses a url or moltbook_post check may connect to (anchors-v1 §9). An anchor received
 * from a peer names a URL the peer chose; fetching it from this node must not reach this node's
 * loopback, private network or cloud metadata service (server-side request forgery). Addresses are
 * parsed and matched by node:net (isIP, BlockList, which also matches IPv4-mapped IPv6 addresses
 * against IPv4 ranges); the ranges are data, from the IANA special-purpose address registries.
 */

/** Who made the anchor being checked, which decides the policy its URL is fetched under. */
export type AnchorOrigin = 'local' | 'peer'

/** A range of addresses that is not public: its prefix and what it is for. */
export interface SpecialRange {
  cidr: string
  name: string
}

/** Why an address may not be fetched. */
export interface AddressRefusal {
  address: string
  range: SpecialRange
}

/**
 * Decides, for each address a host name resolved to (or an IP literal), whether it may be fetched:
 * null when it may, else the range that forbids it.
 */
export interface AddressPolicy {
  readonly name: 'public-only' | 'any-address'
  refusalOf: (host: string, address: string) => AddressRefusal | null
}

// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), the blocks not globally
// reachable, plus multicast and the reserved 240/4 (which holds the broadcast address).
const IPV4_SPECIAL: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"this network" (RFC 791), 0.0.0.0 reaches this host' },
  { cidr: '10.0.0.0/8', name: 'private-use (RFC 1918)' },
  { cidr: '100.64.0.0/10', name: 'shared address space, carrier-grade NAT (RFC 6598)' },
  { cidr: '127.0.0.0/8', name: 'loopback (RFC 1122)' },
  { cidr: '169.254.0.0/16', name: 'link-local, incl. cloud metadata 169.254.169.254 (RFC 3927)' },
  { cidr: '172.16.0.0/12', name: 'private-use (RFC 1918)' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments (RFC 6890)' },
  { cidr: '192.0.2.0/24', name: 'documentation TEST-NET-1 (RFC 5737)' },
  { cidr: '192.88.99.0/24', name: '6to4 relay anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', name: 'private-use (RFC 1918)' },
  { cidr: '198.18.0.0/15', name: 'benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', name: 'documentation TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', name: 'documentation TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', name: 'multicast (RFC 5771)' },
  { cidr: '240.0.0.0/4', name: 'reserved, incl. broadcast 255.255.255.255 (RFC 1112, RFC 919)' }
]

// IANA IPv6 Special-Purpose Address Registry, and the prefixes that embed an IPv4 address a
// translator or tunnel would reach (NAT64, 6to4, Teredo): their IPv4 side may be private.
// IPv4-mapped addresses (::ffff:0:0/96) are judged by the IPv4 address they map to.
const IPV6_SPECIAL: readonly SpecialRange[] = [
  { cidr: '::/128', name: 'unspecified (RFC 4291), :: reaches this host' },
  { cidr: '::1/128', name: 'loopback (RFC 4291)' },
  { cidr: '::/96', name: 'IPv4-compatible, deprecated (RFC 4291)' },
  { cidr: '64:ff9b::/96', name: 'NAT64 well-known prefix (RFC 6052)' },
  { cidr: '64:ff9b:1::/48', name: 'NAT64 local-use (RFC 8215)' },
  { cidr: '100::/64', name: 'discard-only (RFC 6666)' },
  { cidr: '2001::/23', name: 'IETF protocol assignments, incl. Teredo 2001::/32 (RFC 2928, RFC 4380)' },
  { cidr: '2001:db8::/32', name: 'documentation (RFC 3849)' },
  { cidr: '2002::/16', name: '6to4 (RFC 3056)' },
  { cidr: '3fff::/20', name: 'documentation (RFC 9637)' },
  { cidr: '5f00::/16', name: 'segment routing SIDs (RFC 9602)' },
  { cidr: 'fc00::/7', name: 'unique local (RFC 4193)' },
  { cidr: 'fe80::/10', name: 'link-local (RFC 4291)' },
  { cidr: 'fec0::/10', name: 'site-local, deprecated (RFC 3879)' },
  { cidr: 'ff00::/8', name: 'multicast (RFC 4291)' }
]

/** Every unicast address outside 2000::/3 is unassigned or special (RFC 4291 §2.4, IANA). */
const GLOBAL_UNICAST: SpecialRange = { cidr: '2000::/3', name: 'outside global unicast 2000::/3 (RFC 4291)' }
const SCOPED: SpecialRange = { cidr: '%scope', name: 'a scoped (zone id) address, link-local or site-local' }
const MAPPED: SpecialRange = { cidr: '::ffff:0:0/96', name: 'IPv4-mapped (RFC 4291)' }

interface CompiledRange { range: SpecialRange, list: BlockList }

function compile (ranges: readonly SpecialRange[], family: 'ipv4' | 'ipv6'): CompiledRange[] {
  return ranges.map((range) => {
    const list = new BlockList()
    const [network = '', prefix = ''] = range.cidr.split('/')
    list.addSubnet(network, Number(prefix), family)
    return { range, list }
  })
}

const V4 = compile(IPV4_SPECIAL, 'ipv4')
const V6 = compile(IPV6_SPECIAL, 'ipv6')
const [GLOBAL] = compile([GLOBAL_UNICAST], 'ipv6')
const [MAPPED_LIST] = compile([MAPPED], 'ipv6')

/**
 * The special-purpose range `address` lies in, or null when it is a public address. Anything that
 * is not an IP address at all is refused too (as "not an IP address"): only what parses is judged.
 */
export function specialRangeOf (address: string): SpecialRange | null {
  if (address.includes('%')) return SCOPED
  const family = isIP(address)
  if (family === 4) return V4.find(({ list }) => list.check(address, 'ipv4'))?.range ?? null
  if (family !== 6) return { cidr: address, name: 'not an IP address' }
  // BlockList matches an IPv4-mapped address against the IPv4 ranges itself.
  if (MAPPED_LIST?.list.check(address, 'ipv6') === true) return V4.find(({ list }) => list.check(address, 'ipv6'))?.range ?? null
  const special = V6.find(({ list }) => list.check(address, 'ipv6'))?.range
  if (special !== undefined) return special
  return GLOBAL?.list.check(address, 'ipv6') === true ? null : GLOBAL_UNICAST
}

/** Whether `address` is a public (globally reachable unicast) IP address. */
export function isPublicAddress (address: string): boolean {
  return specialRangeOf(address) === null
}

/** What an operator allows beyond public addresses: host names, and addresses or CIDR ranges. */
export interface UrlAllowance {
  hosts: ReadonlySet<string>
  addresses: BlockList
}

/**
 * Parses `--anchor-url-allow` entries: a host name (as a URL would name it: `intranet.example`,
 * `localhost`), an IP address (`127.0.0.1`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`).
 * USAGE for anything else.
 */
export function parseUrlAllowance (entries: readonly string[]): UrlAllowance {
  const hosts = new Set<string>()
  const addresses = new BlockList()
  for (const entry of entries) {
    const [network = '', prefix, extra] = entry.split('/')
    const family = isIP(network)
    if (prefix !== undefined) {
      const bits = Number(prefix)
      const max = family === 4 ? 32 : 128
      if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(prefix) || bits > max) throw badEntry(entry)
      addresses.addSubnet(network, bits, family === 4 ? 'ipv4' : 'ipv6')
    } else if (family !== 0) {
      addresses.addAddress(network, family === 4 ? 'ipv4' : 'ipv6')
    } else {
      hosts.add(hostKey(hostNameOf(entry)))
    }
  }
  return { hosts, addresses }
}

function hostNameOf (entry: string): string {
  let host: string
  try {
    host = new URL(`http://${entry}/`).hostname
  } catch {
    throw badEntry(entry)
  }
  // A port, user or path in the entry would make the URL's host differ from the entry.
  if (host !== entry.toLowerCase() || host === '') throw badEntry(entry)
  return host
}

/** `Intranet.Example.` and `intranet.example` name one host. */
function hostKey (host: string): string {
  return host.toLowerCase().replace(/\.$/, '')
}

function badEntry (entry: string): IsnadError {
  return new IsnadError('USAGE', `"${entry}" is not a host name, an IP address or a CIDR range (e.g. intranet.example, 10.0.0.5, 10.0.0.0/8, fd00::/8)`)
}

/**
 * Anchors received from peers (anchors-v1 §9): only public addresses, unless the operator allowed
 * the URL's host name, or a range the address lies in.
 */
export function publicOnlyPolicy (allow: UrlAllowance = parseUrlAllowance([])): AddressPolicy {
  return {
    name: 'public-only',
    refusalOf: (host, address) => {
      const range = specialRangeOf(address)
      if (range === null || allow.hosts.has(hostKey(host))) return null
      const family = isIP(address) === 4 ? 'ipv4' : 'ipv6'
      if (isIP(address) !== 0 && allow.addresses.check(address, family)) return null
      return { address, range }
    }
  }
}

/** Anchors this node's own agents made (`isnad anchor add --url`): an intranet URL is legitimate. */
export const ANY_ADDRESS_POLICY: AddressPolicy = { name: 'any-address', refusalOf: () => null }

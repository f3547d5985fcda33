/**
 * Generates the key event vectors of protocols/record-v1.md §13: protocols/vectors/key-events/
 * key-events.json — one valid key log with the historical key lookups it implies (K12), a second
 * identity's plain rotation, and invalid continuations each breaking one rule (K2–K11, K13).
 *
 *   npm run build && node dist/scripts/generate-key-event-vectors.js           write the file
 *   npm run build && node dist/scripts/generate-key-event-vectors.js --check   exit 1 if it differs
 *
 * Deterministic: keys come from labelled seeds (SHA-256 of the label) and Ed25519 is deterministic.
 * Events are built with src/key-events's builders; test/unit/keyring/vectors.test.ts checks every
 * vector against the chain rules, and each signature against node:crypto independently.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { encodeDidKey, publicKeyOfSeed } from '../src/identity/index.js'
import { encodeSignature } from '../src/record/index.js'
import { signBytes } from '../src/identity/index.js'
import {
  applyKeyEvents, buildDelegation, buildInception, buildRevocation, buildRotation, keyEventCidOf, keyEventSigningInput, keyEventIdOf,
  type KeyLogState, type KeySigner, type SignedKeyEvent
} from '../src/key-events/index.js'
import { nobleVerifier } from '../src/identity/index.js'

const OUTPUT = new URL('../../protocols/vectors/key-events/key-events.json', import.meta.url)
const NOW = '2026-03-01T00:00:00Z'

function key (name: string): KeySigner & { name: string, seed: string } {
  const seed = createHash('sha256').update(`isnad key-event vector ${name}`).digest()
  return { name, seed: seed.toString('hex'), did: encodeDidKey(publicKeyOfSeed(seed)), secretKey: Uint8Array.from(seed) }
}

const k = Object.fromEntries(['k0', 'k1', 'k2', 'd1', 'd2', 'd3', 'b0', 'b1', 'b2', 'x'].map((n) => [n, key(n)])) as Record<string, ReturnType<typeof key>>
const options = { verifier: nobleVerifier, now: Date.parse(NOW) }

function grow (state: KeyLogState | undefined, event: SignedKeyEvent): KeyLogState {
  return applyKeyEvents(state, [event], options)
}

// ---- identity A: delegations, a rotation forced by a leak, a revocation ----
const a: SignedKeyEvent[] = []
let sa = grow(undefined, push(a, buildInception(k.k0!, k.k1!.did, '2026-01-01T00:00:00Z')))
sa = grow(sa, push(a, buildDelegation(sa, { current: k.k0!, delegate: k.d1!, createdAt: '2026-01-10T00:00:00Z' })))
sa = grow(sa, push(a, buildDelegation(sa, { current: k.k0!, delegate: k.d3!, createdAt: '2026-01-25T00:00:00Z' })))
sa = grow(sa, push(a, buildRotation(sa, { current: k.k0!, next: k.k1!, following: k.k2!.did, createdAt: '2026-02-01T00:00:00Z', compromisedSince: '2026-01-20T00:00:00Z' })))
sa = grow(sa, push(a, buildDelegation(sa, { current: k.k1!, delegate: k.d2!, createdAt: '2026-02-05T00:00:00Z', expiresAt: '2026-03-01T00:00:00Z' })))
sa = grow(sa, push(a, buildRevocation(sa, { current: k.k1!, key: k.d1!.did, createdAt: '2026-02-15T00:00:00Z', reason: 'device lost' })))

// ---- identity B: a plain rotation ----
const b: SignedKeyEvent[] = []
let sb = grow(undefined, push(b, buildInception(k.b0!, k.b1!.did, '2026-01-01T00:00:00Z')))
sb = grow(sb, push(b, buildRotation(sb, { current: k.b0!, next: k.b1!, following: k.b2!.did, createdAt: '2026-02-01T00:00:00Z' })))

function push (list: SignedKeyEvent[], event: SignedKeyEvent): SignedKeyEvent {
  list.push(event)
  return event
}

const status = [
  ['k0', '2025-12-01T00:00:00Z', 'valid', 'K12: the inception key signs for the identity from before its log existed'],
  ['k0', '2026-01-15T00:00:00Z', 'valid', 'K12: before the declared compromise'],
  ['k0', '2026-01-21T00:00:00Z', 'KEY_REVOKED', 'K12: after compromised_since, even before the rotation'],
  ['k1', '2026-01-15T00:00:00Z', 'KEY_INACTIVE', 'K12: a rotated-in key is valid from its rotation'],
  ['k1', '2026-02-02T00:00:00Z', 'valid', 'K12'],
  ['d1', '2026-01-05T00:00:00Z', 'KEY_INACTIVE', 'K12: a delegate is valid from its delegation'],
  ['d1', '2026-02-01T00:00:00Z', 'valid', 'K11: delegated before the compromise, it survives it'],
  ['d1', '2026-02-16T00:00:00Z', 'KEY_REVOKED', 'K9'],
  ['d3', '2026-01-26T00:00:00Z', 'KEY_REVOKED', 'K11: delegated by a key after its compromise: void'],
  ['d2', '2026-02-10T00:00:00Z', 'valid', 'K12'],
  ['d2', '2026-03-02T00:00:00Z', 'KEY_INACTIVE', 'K8: past expires_at'],
  ['b0', '2026-01-31T00:00:00Z', 'valid', 'K12: signed before the rotation: still valid'],
  ['b0', '2026-02-02T00:00:00Z', 'KEY_ROTATED', 'K12: signed by a key after its rotation'],
  ['b1', '2026-02-02T00:00:00Z', 'valid', 'K12'],
  ['x', '2026-02-02T00:00:00Z', 'unknown', 'K12: a key no log names is only itself']
].map(([name, at, expect, note]) => ({ key: k[name as string]!.did, key_name: name, at, expect, note }))

/** An event of identity A's log, re-signed over changed content by `signer` (and `coSigner`). */
function resign (event: SignedKeyEvent['record'], signer: KeySigner, coSigner?: KeySigner): SignedKeyEvent {
  const message = keyEventSigningInput(keyEventCidOf(event))
  return {
    record: event,
    signature: encodeSignature(signBytes(message, signer.secretKey)),
    ...(coSigner === undefined ? {} : { co_signature: encodeSignature(signBytes(message, coSigner.secretKey)) })
  }
}

const prefix2 = sb.events.slice(0, 1)
const sb1 = applyKeyEvents(undefined, prefix2, options)
const rot = b[1]!.record as Extract<SignedKeyEvent['record'], { type: 'rotation' }>
const invalid = [
  { id: 'K4-first-not-inception', rule: 'K4', known: 0, events: [b[1]!], expect: 'KEY_EVENT_INVALID' },
  { id: 'K4-sequence-gap', rule: 'K4', known: 1, events: [resign({ ...rot, sequence: 2 }, k.b0!, k.b1!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K4-wrong-previous', rule: 'K4', known: 1, events: [resign({ ...rot, previous: keyEventIdOf(a[0]!.record) }, k.b0!, k.b1!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K5-signed-by-another-key', rule: 'K5', known: 1, events: [resign(rot, k.x!, k.b1!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K6-new-key-not-committed', rule: 'K6', known: 1, events: [resign({ ...rot, new_key: k.x!.did }, k.b0!, k.x!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K6-co-signature-by-another-key', rule: 'K6', known: 1, events: [resign(rot, k.b0!, k.x!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K6-missing-co-signature', rule: 'K3', known: 1, events: [{ record: rot, signature: b[1]!.signature }], expect: 'KEY_EVENT_INVALID' },
  { id: 'K7-dated-before-previous', rule: 'K7', known: 1, events: [resign({ ...rot, created_at: '2025-12-31T00:00:00Z' }, k.b0!, k.b1!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K7-dated-in-the-future', rule: 'K7', known: 1, events: [resign({ ...rot, created_at: '2026-03-01T01:00:00Z' }, k.b0!, k.b1!)], expect: 'TIMESTAMP_IN_FUTURE' },
  { id: 'K8-delegate-is-own-key', rule: 'K8', known: 1, events: [buildDelegation(sb1, { current: k.b0!, delegate: k.b0!, createdAt: '2026-01-02T00:00:00Z' })], expect: 'KEY_EVENT_INVALID' },
  { id: 'K8-delegate-co-signature-invalid', rule: 'K8', known: 1, events: [resign({ ...(buildDelegation(sb1, { current: k.b0!, delegate: k.x!, createdAt: '2026-01-02T00:00:00Z' }).record) }, k.b0!, k.b2!)], expect: 'KEY_EVENT_INVALID' },
  { id: 'K9-revoke-unknown-key', rule: 'K9', known: 1, events: [buildRevocation(sb1, { current: k.b0!, key: k.x!.did, createdAt: '2026-01-02T00:00:00Z' })], expect: 'KEY_EVENT_INVALID' },
  { id: 'K9-effective-before-created', rule: 'K9', known: 1, events: [resign({ ...(buildRevocation(sb1, { current: k.b0!, key: k.b0!.did, createdAt: '2026-01-02T00:00:00Z' }).record), effective_at: '2026-01-01T12:00:00Z' } as SignedKeyEvent['record'], k.b0!)], expect: 'KEY_EVENT_INVALID' },
  (() => {
    const revoked = buildRevocation(sb1, { current: k.b0!, key: k.b0!.did, createdAt: '2026-01-02T00:00:00Z' })
    const closed = applyKeyEvents(sb1, [revoked], options)
    return { id: 'K10-event-after-revoking-the-current-key', rule: 'K10', known: 1, events: [revoked, buildDelegation(closed, { current: k.b0!, delegate: k.x!, createdAt: '2026-01-03T00:00:00Z' })], expect: 'KEY_EVENT_INVALID' }
  })()
]

const conflict = {
  note: 'K13: two different events at one position of one identity\'s log: the first seen is kept',
  known: b,
  received: [b[0]!, buildDelegation(sb1, { current: k.b0!, delegate: k.x!, createdAt: '2026-01-02T00:00:00Z' })],
  expect: 'KEY_EVENT_CONFLICT'
}

const document = {
  description: 'Normative key event vectors of protocols/record-v1.md §13. Generated by scripts/generate-key-event-vectors.ts; do not edit.',
  now: NOW,
  keys: Object.values(k).map(({ name, seed, did }) => ({ name, seed, did })),
  logs: [
    { identity: sa.identity, ids: sa.ids, events: a },
    { identity: sb.identity, ids: sb.ids, events: b }
  ],
  status,
  invalid: invalid.map((v) => ({ ...v, identity: k.b0!.did })),
  conflict
}

const text = JSON.stringify(document, null, 2) + '\n'
if (process.argv.includes('--check')) {
  let current = ''
  try { current = readFileSync(OUTPUT, 'utf8') } catch {}
  if (current !== text) {
    console.error('protocols/vectors/key-events/key-events.json is stale: regenerate it')
    process.exitCode = 1
  }
} else {
  writeFileSync(OUTPUT, text)
  console.error('wrote protocols/vectors/key-events/key-events.json')
}

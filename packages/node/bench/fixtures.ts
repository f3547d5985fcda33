import { createPrivateKey, createPublicKey, sign as opensslSign, type KeyObject } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CONTENT_TYPES, encodeDidKey, encodeSignature, keyPairFromSeed, recordCidOf, signingInputFor, signRecord,
  type AttestationRecord, type AttestationVerdict, type ContentType, type IsnadRecord, type MemoryRecord
} from '../src/index.js'
import type { StoredRecord } from '../src/record-index/index.js'
import { pick } from './stats.js'

/** An agent key in both forms: the seed for @noble/curves and OpenSSL's KeyObjects. */
export interface BenchAgent {
  did: string
  secretKey: Uint8Array
  publicKey: Uint8Array
  privateKeyObject: KeyObject
  publicKeyObject: KeyObject
}

/** DER prefixes of Ed25519 PKCS#8 private keys and SPKI public keys (RFC 8410 §7, §4). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

/** Agent `n` of a family: the seed is 32 bytes derived from the family and n, fixed across runs. */
export function createAgent (family: number, n: number): BenchAgent {
  const seed = new Uint8Array(32)
  for (let i = 0; i < 32; i++) seed[i] = (family * 131 + n * 7 + i * 13 + 1) & 0xff
  const { secretKey, publicKey } = keyPairFromSeed(seed)
  return {
    did: encodeDidKey(publicKey),
    secretKey,
    publicKey,
    privateKeyObject: createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secretKey]), format: 'der', type: 'pkcs8' }),
    publicKeyObject: createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' })
  }
}

/**
 * Signs a record with OpenSSL instead of @noble/curves, only to build large fixtures fast. Ed25519
 * signatures are deterministic (RFC 8032 §5.1.6: the nonce is a hash of the key and the message),
 * so this is byte for byte the signature signRecord makes from the same seed; assertSameSignatures
 * checks that on every run. Unlike signRecord it skips the schema check: the generators below only
 * build valid records, and the query benchmark verifies a sample with verifyRecord.
 */
export function signFast<R extends IsnadRecord> (record: R, agent: BenchAgent): StoredRecord<R> {
  const cid = recordCidOf(record)
  const signature = opensslSign(null, signingInputFor(record.kind, cid), agent.privateKeyObject)
  return { id: cid.toString(), signed: { record, signature: encodeSignature(signature) } }
}

/** Throws unless signFast and signRecord (noble) agree on `record`. */
export function assertSameSignatures (record: IsnadRecord, agent: BenchAgent): void {
  const fast = signFast(record, agent)
  const noble = signRecord(record, agent.secretKey)
  if (fast.id !== noble.id || fast.signed.signature !== noble.signed.signature) {
    throw new Error('OpenSSL and @noble/curves signatures differ: the fixtures would not be real records')
  }
}

const WORDS = [
  'agent', 'memory', 'witness', 'signature', 'trust', 'peer', 'gossip', 'anchor', 'ledger', 'session',
  'insight', 'the', 'a', 'of', 'and', 'to', 'when', 'after', 'before', 'reviewing', 'deploy', 'build',
  'test', 'failed', 'passed', 'cache', 'index', 'query', 'user', 'asked', 'prefers', 'shorter', 'answers'
]

function sentence (random: () => number, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) out.push(pick(random, WORDS))
  return out.join(' ')
}

/** Tag names `tag-000` … and a Zipf(s = 1) sampler over them: a few tags are everywhere. */
export function createTagSampler (count: number, random: () => number): { tags: string[], sample: () => string } {
  const tags = Array.from({ length: count }, (_, i) => `tag-${String(i).padStart(3, '0')}`)
  const cumulative: number[] = []
  let total = 0
  for (let k = 1; k <= count; k++) cumulative.push(total += 1 / k)
  return {
    tags,
    sample: () => {
      const x = random() * total
      let lo = 0
      let hi = cumulative.length - 1
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if ((cumulative[mid] as number) < x) lo = mid + 1
        else hi = mid
      }
      return tags[lo] as string
    }
  }
}

export interface MemoryShape {
  author: BenchAgent
  /** Distinguishes memories with otherwise equal fields, so every id differs. */
  serial: number
  createdMillis: number
  tags: string[]
  type?: ContentType
}

/** A realistic memory record: a summary, a body of a few sentences, 1–5 tags. */
export function memoryRecord (random: () => number, shape: MemoryShape): MemoryRecord {
  return {
    kind: 'memory',
    version: 1,
    content: {
      type: shape.type ?? pick(random, CONTENT_TYPES),
      summary: `#${shape.serial} ${sentence(random, 8)}`,
      body: `${sentence(random, 25)}. ${sentence(random, 20)}.`,
      tags: shape.tags
    },
    author: { agent_id: shape.author.did, platform: 'bench' },
    created_at: new Date(shape.createdMillis).toISOString(),
    context: { session_id: `session-${shape.serial % 97}`, confidence: Math.round(random() * 100) / 100 },
    lineage: { derived_from: [] }
  }
}

export function attestationRecord (memoryId: string, witness: BenchAgent, verdict: AttestationVerdict, witnessedMillis: number): AttestationRecord {
  return {
    kind: 'attestation',
    version: 1,
    memory: memoryId,
    witness: witness.did,
    attestation: verdict,
    witnessed_at: new Date(witnessedMillis).toISOString(),
    ...(verdict === 'partial' ? { claims: ['the summary'] } : {})
  }
}

/** 1–5 distinct tags from the sampler. */
export function sampleTags (random: () => number, sample: () => string): string[] {
  const wanted = 1 + Math.floor(random() * 5)
  const tags = new Set<string>()
  while (tags.size < wanted) tags.add(sample())
  return [...tags]
}

/** A temporary directory, removed by the returned function. */
export async function createTempDir (label: string): Promise<{ path: string, remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `isnad-bench-${label}-`))
  return { path, remove: async () => await rm(path, { recursive: true, force: true }) }
}

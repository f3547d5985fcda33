import * as dagCbor from '@ipld/dag-cbor'
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { REFERENCE_ROOTS } from './vector-data.js'

/*
 * Builds protocols/vectors/merkle/checkpoint.json independently of src/: DAG-CBOR from @ipld/dag-cbor,
 * the CID from multiformats, SHA-256 and Ed25519 from node:crypto, did:key by hand. checkpoint.test.ts
 * checks the committed file against this and runs src/merkle on it.
 */

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex')
const utf8 = new TextEncoder()

export interface VectorKey { name: string, seed: string, did: string }
interface Signer { key: VectorKey, sign: (message: Uint8Array) => string }

function signerOf (name: string, fill: number): Signer {
  const seed = Buffer.alloc(32, fill)
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32)
  const did = 'did:key:' + base58btc.encode(Uint8Array.from([0xed, 0x01, ...publicKey]))
  return {
    key: { name, seed: seed.toString('hex'), did },
    sign: (message) => sign(null, message, privateKey).toString('base64').replace(/=+$/, '')
  }
}

function cidOf (record: unknown): { cid: CID, cbor: Uint8Array } {
  const cbor = dagCbor.encode(record)
  const digest = new Uint8Array(createHash('sha256').update(cbor).digest())
  return { cid: CID.createV1(dagCbor.code, Digest.create(0x12, digest)), cbor }
}

function signingInput (tag: string, cid: CID): Uint8Array {
  return Uint8Array.from([...utf8.encode(tag), ...cid.bytes])
}

const NODE = signerOf('node', 0x2a)
const OTHER = signerOf('other', 0x2b)
const CREATED_AT = '2026-02-05T16:00:00Z'
/** The verifier's clock for the freshness rule (R13). */
export const NOW = '2026-02-05T16:05:00Z'

function checkpoint (size: number, root: string, log = NODE.key.did, createdAt = CREATED_AT): Record<string, unknown> {
  return { kind: 'checkpoint', version: 1, log, size, root, created_at: createdAt }
}

function signWith (signer: Signer, record: Record<string, unknown>, tag = 'isnad/checkpoint/v1\0'): { record: Record<string, unknown>, signature: string } {
  return { record, signature: signer.sign(signingInput(tag, cidOf(record).cid)) }
}

function valid (id: string, record: Record<string, unknown>): Record<string, unknown> {
  const { cid, cbor } = cidOf(record)
  const input = signingInput('isnad/checkpoint/v1\0', cid)
  return { id, signed: { record, signature: NODE.sign(input) }, cid: cid.toString(), record_cbor_hex: Buffer.from(cbor).toString('hex'), signing_input_hex: Buffer.from(input).toString('hex') }
}

/** The root of a tree of 8 leaves other than the reference tree's: any 32 bytes differ from it. */
const FORKED_ROOT_8 = createHash('sha256').update('a fork of the reference log').digest('hex')

export function buildCheckpointVectors (): Record<string, unknown> {
  const size8 = checkpoint(8, REFERENCE_ROOTS[8] as string)
  const signed8 = signWith(NODE, size8)
  return {
    description: 'Checkpoint records (transparency-v1 §5, §6): valid checkpoints with their CID, canonical DAG-CBOR and signing input; checkpoints that must be refused with their code; an equivocating pair. Roots are those of the RFC 6962 reference tree (rfc6962.json).',
    now: NOW,
    keys: [NODE.key, OTHER.key],
    valid: [
      valid('size-8', size8),
      valid('size-5', checkpoint(5, REFERENCE_ROOTS[5] as string)),
      valid('size-0-empty-root', checkpoint(0, REFERENCE_ROOTS[0] as string)),
      valid('milliseconds', checkpoint(1, REFERENCE_ROOTS[1] as string, NODE.key.did, '2026-02-05T16:00:00.123Z'))
    ],
    invalid: [
      { id: 'size-changed-after-signing', code: 'SIGNATURE_INVALID', signed: { ...signed8, record: { ...size8, size: 7 } } },
      { id: 'root-changed-after-signing', code: 'SIGNATURE_INVALID', signed: { ...signed8, record: { ...size8, root: REFERENCE_ROOTS[7] } } },
      { id: 'signed-by-another-key', code: 'SIGNATURE_INVALID', signed: signWith(OTHER, size8) },
      { id: 'memory-domain-tag', code: 'SIGNATURE_INVALID', signed: signWith(NODE, size8, 'isnad/memory/v1\0') },
      { id: 'no-domain-tag', code: 'SIGNATURE_INVALID', signed: signWith(NODE, size8, '') },
      { id: 'root-upper-case', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(8, (REFERENCE_ROOTS[8] as string).toUpperCase())) },
      { id: 'root-31-bytes', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(8, (REFERENCE_ROOTS[8] as string).slice(2))) },
      { id: 'size-0-other-root', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(0, REFERENCE_ROOTS[1] as string)) },
      { id: 'size-negative', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(-1, REFERENCE_ROOTS[1] as string)) },
      { id: 'size-fractional', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(1.5, REFERENCE_ROOTS[1] as string)) },
      { id: 'unknown-field', code: 'SCHEMA_INVALID', signed: signWith(NODE, { ...size8, note: 'x' }) },
      { id: 'version-2', code: 'SCHEMA_INVALID', signed: signWith(NODE, { ...size8, version: 2 }) },
      { id: 'log-not-did-key', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(8, REFERENCE_ROOTS[8] as string, 'node-1')) },
      { id: 'time-without-zone', code: 'SCHEMA_INVALID', signed: signWith(NODE, checkpoint(8, REFERENCE_ROOTS[8] as string, NODE.key.did, '2026-02-05T16:00:00')) },
      { id: 'dated-16-minutes-ahead', code: 'TIMESTAMP_IN_FUTURE', signed: signWith(NODE, checkpoint(8, REFERENCE_ROOTS[8] as string, NODE.key.did, '2026-02-05T16:21:00Z')) }
    ],
    equivocation: {
      a: signed8,
      b: signWith(NODE, checkpoint(8, FORKED_ROOT_8, NODE.key.did, '2026-02-05T16:01:00Z')),
      same_root_later: signWith(NODE, checkpoint(8, REFERENCE_ROOTS[8] as string, NODE.key.did, '2026-02-05T16:02:00Z')),
      other_log: signWith(OTHER, checkpoint(8, FORKED_ROOT_8, OTHER.key.did))
    }
  }
}

import { createCipheriv, createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import * as dagPb from '@ipld/dag-pb'
import { importByteStream, type ImporterOptions } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import type { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { importUnixfs, kuboCidV0ImportOptions, kuboCidV1ImportOptions, UNIXFS_CHUNK_SIZE, UNIXFS_MAX_CHILDREN } from '../../../src/anchor/index.js'

/*
 * protocols/vectors/unixfs/kubo.json: the CIDs kubo prints for known content. The kubo-cidv1 vectors
 * go through importUnixfs with the options isnad uses; the other profiles differ from it in exactly
 * the settings the vector file names, so they check the shared chunker and layout too.
 */

interface Vector {
  id: string
  profile: 'kubo-cidv1' | 'kubo-legacy-cidv0' | 'kubo-test-cid-v1'
  content: { text: string } | { chacha20: { size: number, seed: string } }
  cid: string
  root_links?: number
  source: string
}

const file = JSON.parse(readFileSync(new URL('../../../protocols/vectors/unixfs/kubo.json', import.meta.url), 'utf8')) as {
  profiles: Record<Vector['profile'], { chunk_size: number, max_links: number, raw_leaves: boolean, cid_version: number }>
  vectors: Vector[]
}

/** kubo's DeterministicRandomReader: the ChaCha20 keystream under SHA-256(seed), zero nonce, counter 0. */
function * chacha20Stream (size: number, seed: string): Generator<Uint8Array> {
  const cipher = createCipheriv('chacha20', createHash('sha256').update(seed).digest(), Buffer.alloc(16))
  const zeros = Buffer.alloc(1 << 20)
  for (let left = size; left > 0; left -= zeros.length) yield cipher.update(left >= zeros.length ? zeros : zeros.subarray(0, left))
}

function contentOf (vector: Vector): Iterable<Uint8Array> {
  return 'text' in vector.content ? [new TextEncoder().encode(vector.content.text)] : chacha20Stream(vector.content.chacha20.size, vector.content.chacha20.seed)
}

function optionsOf (profile: Vector['profile']): ImporterOptions {
  if (profile === 'kubo-cidv1') return kuboCidV1ImportOptions()
  if (profile === 'kubo-legacy-cidv0') return kuboCidV0ImportOptions()
  const p = file.profiles[profile]
  return { ...kuboCidV1ImportOptions(), chunker: fixedSize({ chunkSize: p.chunk_size }), layout: balanced({ maxChildrenPerNode: p.max_links }) }
}

/** Keeps only the root's bytes: the vectors are up to 174 MiB, and only the root's links are checked. */
function rootKeeper (): { put: (cid: CID, bytes: Uint8Array) => Promise<CID>, last: () => Uint8Array | undefined } {
  let last: Uint8Array | undefined
  return { put: async (cid, bytes) => { last = bytes; return cid }, last: () => last }
}

describe('UnixFS import matches kubo (protocols/vectors/unixfs/kubo.json)', () => {
  it('isnad\'s options are kubo\'s `--cid-version 1` defaults', () => {
    expect(file.profiles['kubo-cidv1']).toEqual({ meaning: expect.any(String), chunk_size: UNIXFS_CHUNK_SIZE, max_links: UNIXFS_MAX_CHILDREN, raw_leaves: true, cid_version: 1 })
    expect(kuboCidV1ImportOptions()).toMatchObject({ cidVersion: 1, rawLeaves: true, reduceSingleLeafToSelf: true })
  })

  for (const vector of file.vectors) {
    it(`${vector.id} (${vector.profile})`, async () => {
      const keeper = rootKeeper()
      const cid = vector.profile === 'kubo-cidv1'
        ? (await importUnixfs(contentOf(vector), keeper)).cid
        : (await importByteStream(contentOf(vector), keeper, optionsOf(vector.profile))).cid
      expect(cid.toString(), vector.id).toBe(vector.cid)
      if (vector.root_links !== undefined) {
        const root = keeper.last()
        expect(root, vector.id).toBeDefined()
        expect(dagPb.decode(root ?? new Uint8Array()).Links.length, vector.id).toBe(vector.root_links)
      }
    })
  }
})

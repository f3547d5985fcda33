import { createHash } from 'node:crypto'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import {
  AnchorVerifier, cidAnchorHash, createBlockchainChecker, createCidChecker, createMemoryBlockStore, createMemoryStateStore,
  importUnixfs, parseGitReference, type AnchorChecker, type AnchorCheck, type AnchorClaim, type BlockchainVerifier
} from '../../../src/anchor/index.js'
import type { AnchorRecord, AnchorType } from '../../../src/schema/index.js'

const never = new AbortController().signal

/** Deterministic content of `size` bytes with no two chunks alike (a SHA-256 counter stream). */
function content (size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let offset = 0, n = 0; offset < size; offset += 32, n++) bytes.set(createHash('sha256').update(String(n)).digest().subarray(0, size - offset), offset)
  return bytes
}

async function imported (size: number): Promise<{ blocks: ReturnType<typeof createMemoryBlockStore>, claim: AnchorClaim, cid: CID }> {
  const blocks = createMemoryBlockStore()
  const { cid } = await importUnixfs(content(size), blocks.importTarget)
  return { blocks, cid, claim: { type: 'cid', reference: cid.toString(), hash: cidAnchorHash(cid) } }
}

describe('cid checker (anchors-v1 V1)', () => {
  it('verifies a DAG whose every block is held and hashes to its CID', async () => {
    const { blocks, claim } = await imported(600_000)
    expect(blocks.size).toBe(4) // three raw leaves and a dag-pb root
    const outcome = await createCidChecker({ blocks })(claim, never)
    expect(outcome.state).toBe('verified')
    expect(outcome.reason).toMatch(/all 4 blocks/)
  })

  it('takes a damaged stored block for local damage, not the anchor\'s fault: unreachable without a good copy, never mismatch', async () => {
    const { blocks, claim, cid } = await imported(600_000)
    const leaf = (await import('@ipld/dag-pb')).decode((await blocks.get(cid)) ?? new Uint8Array()).Links[1]?.Hash
    expect(leaf).toBeDefined()
    // Written behind the store's back, as a damaged disk would.
    await blocks.importTarget.put(leaf as CID, new Uint8Array([1, 2, 3]))
    const alone = await createCidChecker({ blocks })(claim, never)
    expect(alone.state).toBe('unreachable')
    expect(alone.reason).toMatch(/damaged .*does not hash to its CID.*ledger repair/)

    const other = await imported(10)
    expect((await createCidChecker({ blocks: createMemoryBlockStore() })(other.claim, never))).toMatchObject({ state: 'unreachable' })
  })

  it('asks peers for a damaged stored block like a missing one, and the good copy replaces it', async () => {
    const source = await imported(600_000)
    const { blocks, claim, cid } = await imported(600_000)
    const leaf = (await import('@ipld/dag-pb')).decode((await blocks.get(cid)) ?? new Uint8Array()).Links[2]?.Hash as CID
    const good = await blocks.get(leaf)
    await blocks.importTarget.put(leaf, (good ?? new Uint8Array()).subarray(0, 1000)) // truncated on disk
    const asked: string[] = []
    const checker = createCidChecker({
      blocks,
      fetchBlocks: () => async (cids) => {
        for (const wanted of cids) {
          asked.push(wanted.toString())
          const bytes = await source.blocks.get(wanted)
          if (bytes !== null) await blocks.put(wanted, bytes)
        }
      }
    })
    expect((await checker(claim, never)).state).toBe('verified')
    expect(asked).toEqual([leaf.toString()])
    expect(await blocks.get(leaf)).toEqual(good)
  })

  it('asks the fetcher for missing blocks level by level', async () => {
    const source = await imported(600_000)
    const blocks = createMemoryBlockStore()
    const asked: number[] = []
    const checker = createCidChecker({
      blocks,
      fetchBlocks: () => async (cids) => {
        asked.push(cids.length)
        for (const cid of cids) {
          const bytes = await source.blocks.get(cid)
          if (bytes !== null) await blocks.put(cid, bytes)
        }
      }
    })
    expect((await checker(source.claim, never)).state).toBe('verified')
    expect(asked).toEqual([1, 3])
  })

  it('refuses a hash that is not the CID\'s digest, and non-UnixFS CIDs', async () => {
    const { blocks, claim } = await imported(100)
    const checker = createCidChecker({ blocks })
    expect((await checker({ ...claim, hash: `sha2-256:${'0'.repeat(64)}` }, never)).state).toBe('mismatch')
    const dagCbor = CID.parse('bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
    expect((await checker({ type: 'cid', reference: dagCbor.toString(), hash: cidAnchorHash(dagCbor) }, never)).state).toBe('unverifiable')
  })

  it('stores only blocks that hash to their CID', async () => {
    const { cid } = await imported(100)
    await expect(createMemoryBlockStore().put(cid, new Uint8Array([9]))).rejects.toMatchObject({ code: 'CID_MISMATCH' })
  })
})

describe('blockchain checker (anchors-v1 V4)', () => {
  const claim: AnchorClaim = { type: 'blockchain', reference: 'eip155:1:tx:0xabc', hash: `sha2-256:${'a'.repeat(64)}` }

  it('is unverifiable without a verifier, and says why', async () => {
    const outcome = await createBlockchainChecker()(claim, never)
    expect(outcome).toMatchObject({ state: 'unverifiable' })
    expect(outcome.reason).toMatch(/no blockchain verifier is configured/)
  })

  it('lets the first verifier that supports the reference decide', async () => {
    // A verifier over a fixed table of transactions: the plug-in interface, not a chain.
    const committed = new Map([['eip155:1:tx:0xabc', claim.hash]])
    const table: BlockchainVerifier = {
      name: 'table',
      supports: (reference) => reference.startsWith('eip155:'),
      check: async (anchor) => committed.get(anchor.reference) === anchor.hash
        ? { state: 'verified', reason: 'the transaction commits to the hash' }
        : { state: 'mismatch', reason: 'the transaction commits to another hash' }
    }
    const checker = createBlockchainChecker([table])
    expect(await checker(claim, never)).toEqual({ state: 'verified', reason: 'table: the transaction commits to the hash' })
    expect((await checker({ ...claim, hash: `sha2-256:${'b'.repeat(64)}` }, never)).state).toBe('mismatch')
    expect((await checker({ ...claim, reference: 'bip122:000000000019d6689c085ae165831e93:tx:ff' }, never)).state).toBe('unverifiable')
  })
})

describe('git references (anchors-v1 V2)', () => {
  it('parses <repository>#<commit>[:<path>] for both object formats', () => {
    const sha1 = 'a'.repeat(40)
    const sha256 = 'b'.repeat(64)
    expect(parseGitReference(`file:///r#${sha1}`)).toEqual({ repository: 'file:///r', commit: sha1 })
    expect(parseGitReference(`https://x/y.git#${sha256}:docs/a.md`)).toEqual({ repository: 'https://x/y.git', commit: sha256, path: 'docs/a.md' })
    expect(parseGitReference(`file:///r#${'a'.repeat(39)}`)).toBeNull()
  })
})

describe('AnchorVerifier: states cached with a TTL (anchors-v1 §5)', () => {
  function setup (): { verifier: AnchorVerifier, calls: () => number, setState: (s: 'verified' | 'mismatch') => void, clock: { now: number }, reported: AnchorCheck[][] } {
    let count = 0
    let state: 'verified' | 'mismatch' = 'verified'
    const checker: AnchorChecker = async () => { count++; return { state, reason: `it is ${state}` } }
    const clock = { now: Date.parse('2026-03-01T00:00:00Z') }
    const reported: AnchorCheck[][] = []
    const checkers = Object.fromEntries((['cid', 'git_commit', 'url', 'moltbook_post', 'blockchain'] as AnchorType[]).map((t) => [t, checker])) as Record<AnchorType, AnchorChecker>
    const verifier = new AnchorVerifier({
      checkers, states: createMemoryStateStore(), clock: () => clock.now, ttlMs: 60_000, onChecked: async (checks) => { reported.push([...checks]) }
    })
    return { verifier, calls: () => count, setState: (s) => { state = s }, clock, reported }
  }
  const record: AnchorRecord = {
    kind: 'anchor', version: 1, memory: 'bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', type: 'url',
    reference: 'https://example.org/', hash: `sha2-256:${'c'.repeat(64)}`, created_at: '2026-03-01T00:00:00Z',
    anchored_by: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
  }
  const target = { id: 'bafyreib2rxk3rybk3aobmv5cjuql3bm2twh4jo5uxgf5kpqcsgz7soqkyy', record }

  it('reuses a fresh state, checks again after the TTL, and reports each check run with its previous state', async () => {
    const { verifier, calls, setState, clock, reported } = setup()
    const [first] = await verifier.currentMany([target])
    expect(first).toMatchObject({ state: 'verified', checked_at: '2026-03-01T00:00:00.000Z' })
    expect(first?.previous).toBeUndefined()
    setState('mismatch')
    clock.now += 30_000
    expect((await verifier.currentMany([target]))[0]?.state).toBe('verified')
    expect(calls()).toBe(1)
    clock.now += 31_000
    const [again] = await verifier.currentMany([target])
    expect(again).toMatchObject({ state: 'mismatch', previous: 'verified', checked_at: '2026-03-01T00:01:01.000Z' })
    expect(calls()).toBe(2)
    expect(reported.map((r) => r.map((c) => c.state))).toEqual([['verified'], ['mismatch']])
  })

  it('checks at once when forced', async () => {
    const { verifier, calls } = setup()
    await verifier.currentMany([target])
    await verifier.currentMany([target], { force: true })
    expect(calls()).toBe(2)
  })
})

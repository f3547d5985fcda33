import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyLineHash } from '../../../src/ledger/index.js'
import { createNodeHost } from '../../../src/node/index.js'
import { SEND_CHUNK_BYTES } from '../../../src/net/constants.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { encodeSignedRecord } from '../../../src/record/index.js'
import { MAX_BODY_BYTES } from '../../../src/schema/index.js'
import { createAgent, createAttestation, createMemory } from '../../fixtures/records.js'
import { connect, startNode, stopAll, type TestNode } from './fixtures/harness.js'

/*
 * sync-v1 between the daemon's NetHost (createNodeHost) on two real LocalNodes over libp2p on
 * loopback: A serves the bytes its store keeps, packed into sends of SEND_CHUNK_BYTES, with records
 * larger than one send among small ones, so frames straddle send boundaries; B catches up with every
 * record byte for byte.
 */

const PAGE = 16

describe('sync between two daemons\' hosts (sync-v1, createNodeHost)', () => {
  let dir: string
  const nodes: Array<TestNode<ReturnType<typeof createNodeHost>>> = []
  const locals: LocalNode[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isnad-net-host-sync-'))
  })

  afterAll(async () => {
    await stopAll(nodes)
    for (const n of nodes) await n.host.close()
    for (const node of locals) await node.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function open (name: string): Promise<{ node: LocalNode, test: TestNode<ReturnType<typeof createNodeHost>> }> {
    const home = join(dir, name)
    await initHome(home)
    const node = await LocalNode.open({ home })
    locals.push(node)
    const test = await startNode(name, createNodeHost(() => node), { syncOnConnect: false, syncPageSize: PAGE })
    nodes.push(test)
    return { node, test }
  }

  it('catches up on small records and records larger than one send, byte for byte', async () => {
    const a = await open('a')
    const author = createAgent(30)
    const records: Uint8Array[] = []
    for (let k = 0; k < 24; k++) {
      // Every eighth memory carries the largest body: a record of more than one send.
      const body = k % 8 === 3 ? 'b'.repeat(MAX_BODY_BYTES) : `body ${k}`
      const memory = createMemory(author, { summary: `memory ${k}`, body })
      records.push(encodeSignedRecord(memory.signed))
      for (const witness of [31, 32]) records.push(encodeSignedRecord(createAttestation(createAgent(witness), memory.id).signed))
    }
    expect(records.filter((bytes) => bytes.length > SEND_CHUNK_BYTES)).toHaveLength(3)
    await a.node.ingest(records, 'import')
    const { ids } = await a.node.journal.state.recordsSince(0, records.length)
    expect(ids).toHaveLength(records.length)

    // What A serves is what its store keeps, and what encoding its decoded records gives.
    const page = await a.test.host.recordsSince(0, PAGE)
    expect(page.records).toHaveLength(PAGE)
    for (const [i, bytes] of page.records.entries()) {
      const stored = await a.node.store.get(ids[i]!)
      expect(Uint8Array.from(bytes)).toEqual(encodeSignedRecord(stored!.signed))
    }
    expect(Uint8Array.from((await a.test.host.get(ids[9]!))!)).toEqual(encodeSignedRecord((await a.node.store.get(ids[9]!))!.signed))
    expect(await a.test.host.get(createMemory(author).id)).toBeNull()

    const b = await open('b')
    await connect(b.test, a.test)
    const result = await b.test.network.sync(a.test.network.peerId)
    expect(result).toMatchObject({ from: 0, to: records.length, received: records.length, accepted: records.length })
    expect(result.pages).toBe(Math.ceil(records.length / PAGE) + (records.length % PAGE === 0 ? 1 : 0))
    expect(b.test.verifier.total).toBe(records.length)
    const plain = (list: Array<Uint8Array | undefined>): Array<Uint8Array | undefined> => list.map((x) => x === undefined ? x : Uint8Array.from(x))
    expect(plain(await b.node.store.getBytesMany(ids))).toEqual(plain(await a.node.store.getBytesMany(ids)))

    // B's journal kept A's cursor: the current value in index/journal, each page's in coordination/cursors.jsonl.
    const peer = a.test.network.peerId.toString()
    expect(await b.node.journal.state.syncCursor(peer)).toBe(records.length)
    const lines = (await readFile(join(b.node.paths.data, 'coordination', 'cursors.jsonl'), 'utf8')).trim().split('\n')
      .map((line) => JSON.parse(line) as { peer: string, cursor: number, hash: string })
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.every((line) => line.peer === peer && verifyLineHash(line))).toBe(true)
    expect(lines.at(-1)?.cursor).toBe(records.length)
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { readApiToken } from '../../../src/api-access/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { startDaemon, type Daemon, type DaemonOptions } from '../../../src/daemon/index.js'
import { verifyDraw } from '../../../src/draw/index.js'
import { decodeDidKey } from '../../../src/identity/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { changeTrustRoot, initHome, setTrustPolicy } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { verifyRecord } from '../../../src/record/index.js'
import { runIsnad } from '../cli/run-cli.js'
import { homeIn } from './shard-fixtures.js'
import type { AttestationRecord, MemoryRecord, WitnessRequestRecord } from '../../../src/schema/index.js'

/*
 * The witness draw on real daemons over libp2p on 127.0.0.1, real LevelDB in temp dirs
 * (protocols/witness-draw-v1.md). On a network this small every population estimate is below the
 * draw's size, so every agent but the author is drawn: it finds the memory in its inbox as `drawn`
 * without anyone asking, and its attestation carries the draw, which a third node verifies and
 * counts (Attested under isnad-draw). The witness budget skips and counts; private checks ask or
 * not by the node's own randomness; nobody sends a witness request for a drawn witness.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']
const homes: string[] = []
const daemons: Daemon[] = []

interface Home { home: string, agent: string }
interface Started { daemon: Daemon, ops: HttpOperations }

async function home (): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'isnad-draw-'))
  homes.push(dir)
  const { defaultKey } = await initHome(dir)
  return { home: dir, agent: defaultKey.did }
}

async function start (h: Home, options: Partial<DaemonOptions> = {}): Promise<Started> {
  const daemon = await startDaemon({ home: h.home, listen: LOOPBACK, heartbeatMs: 60_000, apiPort: 0, ...options })
  daemons.push(daemon)
  return { daemon, ops: createHttpOperations({ url: daemon.url, token: await readApiToken(nodePaths(h.home).data) }) }
}

async function until<T> (probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function sleep (ms: number): Promise<void> { await new Promise((resolve) => setTimeout(resolve, ms)) }

interface Held {
  memory?: { id: string, record: MemoryRecord }
  attestations: Array<{ id: string, record: AttestationRecord }>
  requests: Array<{ id: string, record: WitnessRequestRecord }>
}

/** What a node holds of one memory, every record verified again; nothing before the memory arrived. */
async function heldAt (ops: HttpOperations, memory: string): Promise<Held> {
  const held: Held = { attestations: [], requests: [] }
  const bundle = await ops.call('exportBundle', { ids: [memory] }).catch((err: unknown) => {
    if (err instanceof IsnadError && err.code === 'NOT_FOUND') return { records: [] }
    throw err
  })
  for (const signed of bundle.records) {
    const v = verifyRecord(signed, { verifier: nodeCryptoVerifier, now: Date.now() })
    const { record } = v.signed
    if (record.kind === 'memory') held.memory = { id: v.id, record }
    else if (record.kind === 'attestation') held.attestations.push({ id: v.id, record })
    else if (record.kind === 'witness_request') held.requests.push({ id: v.id, record })
  }
  return held
}

/** The nodes started, connected through the first one (as many as given: index them freely). */
async function network (...nodes: Array<[Home, Partial<DaemonOptions>?]>): Promise<Started[] & Record<0 | 1 | 2 | 3 | 4, Started>> {
  const first = await start(nodes[0]![0], nodes[0]![1])
  const bootstrap = [first.daemon.multiaddrs()[0]!]
  const rest = await Promise.all(nodes.slice(1).map(async ([h, o]) => await start(h, { bootstrap, ...o })))
  await until(async () => (await first.ops.call('peers', {})).peers.length >= nodes.length - 1 ? true : undefined, 'every peer')
  return [first, ...rest] as unknown as Started[] & Record<0 | 1 | 2 | 3 | 4, Started>
}

afterEach(async () => {
  for (const d of daemons.splice(0)) await d.stop()
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})

describe('the witness draw on real daemons', () => {
  it('draws every non-author agent of a small network: inbox shows it drawn, its attestation carries the draw, a third node counts it (Attested under isnad-draw); no request sent', async () => {
    const [observerHome, authorHome, witnessHome] = [await home(), await home(), await home()]
    // The observer trusts the witness (reputation 1) and scores with isnad-draw.
    await changeTrustRoot(nodePaths(observerHome.home).data, 'added', witnessHome.agent, Date.now())
    await setTrustPolicy(nodePaths(observerHome.home).data, 'isnad-draw')
    // The witness knows the observer (a root): its estimate, 2, is one the observer's (3) accepts
    // (population ≥ N̂ / 2); a witness that knew only itself would state 1, and be refused.
    await changeTrustRoot(nodePaths(witnessHome.home).data, 'added', observerHome.agent, Date.now())
    const never = { random: () => 0.999_999 } // no private check: only the draw is at work
    const [observer, author, witness] = await network([observerHome, { privateChecks: never }], [authorHome, { privateChecks: never }], [witnessHome, { privateChecks: never }])

    const memory = await author.ops.call('remember', { type: 'fact', summary: 'the staging vpn moved to port 51820' })
    // Nobody asked: the witness's inbox shows the memory as drawn.
    const item = await until(async () => (await witness.ops.call('inbox', {})).items.find((i) => i.memory === memory.id), 'the drawn inbox item')
    expect(item).toMatchObject({ drawn: true, requester: authorHome.agent, to: [witnessHome.agent] })
    expect(item.request).toBeUndefined()
    // `isnad inbox` (through the daemon's API) says it is drawn, not asked.
    const cli = await runIsnad(['inbox'], { home: witnessHome.home })
    expect(cli.code, cli.stderr).toBe(0)
    expect(cli.stdout).toMatch(/^drawn /)
    expect(cli.stdout).toContain(memory.id)
    expect(cli.stdout).toContain('(drawn witness)')
    // The observer is drawn too (every agent but the author, on a network this small).
    await until(async () => (await observer.ops.call('inbox', {})).items.find((i) => i.memory === memory.id && i.drawn === true), 'the observer\'s drawn item')
    expect((await author.ops.call('inbox', {})).items.filter((i) => i.memory === memory.id), 'the author is never drawn').toEqual([])

    const { attestation: id } = await witness.ops.call('attest', { id: memory.id, verdict: 'confirm' })
    const held = await until(async () => {
      const h = await heldAt(observer.ops, memory.id)
      return h.attestations.some((a) => a.id === id) ? h : undefined
    }, 'the drawn confirm at the observer')
    const attestation = held.attestations.find((a) => a.id === id)!.record
    expect(attestation.draw).toBeDefined()
    const fraction = verifyDraw(decodeDidKey(witnessHome.agent), memory.id, new Uint8Array(Buffer.from(attestation.draw!.proof, 'base64')))
    expect(fraction).toBeDefined()
    expect(fraction! * attestation.draw!.population).toBeLessThan(5)
    // The third node counts it as drawn: Attested under isnad-draw through that confirm alone.
    const trust = await until(async () => {
      const t = await observer.ops.call('explainTrust', { id: memory.id })
      return t.level === 'Attested' ? t : undefined
    }, 'Attested at the observer')
    expect(trust.witness_selection).toMatchObject({ drawn: 1, asked: 0 })
    expect((await witness.ops.call('inbox', {})).items.filter((i) => i.memory === memory.id), 'answered: out of the inbox').toEqual([])

    // No daemon sent a witness request: not for drawn witnesses, not otherwise.
    await sleep(1000)
    for (const node of [observer, author, witness]) expect((await heldAt(node.ops, memory.id)).requests).toEqual([])
    for (const node of [observer, author, witness]) expect((await node.ops.call('networkStats', {})).witness?.requests).toBe(0)
    expect((await witness.ops.call('networkStats', {})).witness).toMatchObject({ drawn: 1, attestations: 1, drawn_attestations: 1 })
  }, 90_000)

  it('counts a draw within the shard count the nodes were set to: three daemons set to 4 shards, whose N̂ alone gives 1 (W12 under the node\'s own count)', async () => {
    // All three agents in shard 0 under 4, so the memory travels to each and the witness is drawn within 4.
    const [observerHome, authorHome, witnessHome] = [await homeIn(homes, 0, 4), await homeIn(homes, 0, 4), await homeIn(homes, 0, 4)]
    await changeTrustRoot(nodePaths(observerHome.home).data, 'added', witnessHome.agent, Date.now())
    await setTrustPolicy(nodePaths(observerHome.home).data, 'isnad-draw')
    await changeTrustRoot(nodePaths(witnessHome.home).data, 'added', observerHome.agent, Date.now())
    const set = { privateChecks: { random: () => 0.999_999 }, shardCount: 4 }
    const [observer, author, witness] = await network([observerHome, set], [authorHome, set], [witnessHome, set])

    const memory = await author.ops.call('remember', { type: 'fact', summary: 'the build cache moved to the second disk' })
    await until(async () => (await witness.ops.call('inbox', {})).items.find((i) => i.memory === memory.id && i.drawn === true), 'the drawn inbox item')
    const { attestation: id } = await witness.ops.call('attest', { id: memory.id, verdict: 'confirm' })
    const held = await until(async () => {
      const h = await heldAt(observer.ops, memory.id)
      return h.attestations.some((a) => a.id === id) ? h : undefined
    }, 'the drawn confirm at the observer')
    expect(held.attestations.find((a) => a.id === id)!.record.draw).toMatchObject({ shards: 4, population: 1 })
    // Judged against the observer's count 4, not shardCountFor(3) = 1, which refuses a draw within 4.
    const trust = await until(async () => {
      const t = await observer.ops.call('explainTrust', { id: memory.id })
      return t.level === 'Attested' ? t : undefined
    }, 'Attested at the observer')
    expect(trust.witness_selection).toMatchObject({ drawn: 1, asked: 0 })
  }, 90_000)

  it('keeps to the witness budget: beyond it drawn memories and strangers\' requests are skipped and counted', async () => {
    const [authorHome, witnessHome] = [await home(), await home()]
    const [author, witness] = await network([authorHome, { privateChecks: false }], [witnessHome, { privateChecks: false, witnessBudget: { perAuthorPerHour: 1 } }])
    const first = await author.ops.call('remember', { type: 'fact', summary: 'first of three' })
    const second = await author.ops.call('remember', { type: 'fact', summary: 'second of three' })
    for (const m of [first, second]) await until(async () => (await heldAt(witness.ops, m.id)).memory, 'the memory at the witness')
    const stats = await until(async () => {
      const w = (await witness.ops.call('networkStats', {})).witness
      return w !== undefined && w.memories >= 2 ? w : undefined
    }, 'both draws evaluated')
    expect(stats).toMatchObject({ drawn: 1, skipped: { 'per-author': 1, 'per-minute': 0 } })
    expect((await witness.ops.call('inbox', {})).items.map((i) => i.memory)).toEqual([first.id])

    // A stranger's (the author has no reputation at the witness) addressed request, over the author's share: skipped.
    const third = await author.ops.call('remember', { type: 'fact', summary: 'third of three' })
    const request = await author.ops.call('requestWitnesses', { id: third.id, to: [witnessHome.agent] })
    await until(async () => (await heldAt(witness.ops, third.id)).requests.some((r) => r.id === request.id) ? true : undefined, 'the request at the witness')
    await until(async () => (await witness.ops.call('networkStats', {})).witness?.skipped['per-author'] === 3 ? true : undefined, 'the third memory and the request skipped')
    expect((await witness.ops.call('inbox', {})).items.map((i) => i.memory)).toEqual([first.id])
  }, 90_000)

  it('private checks: with no drawn answer, asks one reputable witness when its randomness falls under the probability, and not otherwise', async () => {
    const [askingHome, quietHome, offHome, authorHome, witnessHome, ownRandomHome] = [await home(), await home(), await home(), await home(), await home(), await home()]
    for (const h of [askingHome, quietHome, offHome, ownRandomHome]) {
      await changeTrustRoot(nodePaths(h.home).data, 'added', witnessHome.agent, Date.now())
      await setTrustPolicy(nodePaths(h.home).data, 'isnad-draw')
    }
    // Nobody auto-answers: no drawn answer arrives, so each observer's private check is due.
    const started = await network(
      [askingHome, { privateChecks: { delayMs: 500, random: () => 0 } }],
      [quietHome, { privateChecks: { delayMs: 500, random: () => 0.999_999 } }],
      [offHome, { privateChecks: false }],
      [authorHome, { privateChecks: false }],
      [witnessHome, { privateChecks: false }],
      // The daemon's own randomness, as `isnad start` runs: it decides, and never fails to.
      [ownRandomHome, { privateChecks: { delayMs: 500 } }])
    const ownRandom = started[5]!
    const [asking, quiet, off, author, witness] = started
    const memory = await author.ops.call('remember', { type: 'fact', summary: 'the canary takes 9 minutes' })
    const asked = await until(async () => (await heldAt(asking.ops, memory.id)).requests.find((r) => r.record.requester === askingHome.agent), 'the private check')
    expect(asked.record.witnesses).toEqual([witnessHome.agent])
    // It reached the witness, whose inbox shows it as a request (beside its drawn item).
    await until(async () => (await witness.ops.call('inbox', {})).items.some((i) => i.request === asked.id) ? true : undefined, 'the request in the witness\'s inbox')
    expect((await asking.ops.call('networkStats', {})).witness?.private_checks).toEqual({ due: 1, asked: 1, failed: 0 })
    await until(async () => (await quiet.ops.call('networkStats', {})).witness?.private_checks.due === 1 ? true : undefined, 'the quiet node\'s check due')
    expect((await quiet.ops.call('networkStats', {})).witness?.private_checks.asked).toBe(0)
    expect((await off.ops.call('networkStats', {})).witness?.private_checks).toEqual({ due: 0, asked: 0, failed: 0 })
    // The explanation says what each node did: asked, its coin said no, or nothing (private checks off).
    expect((await asking.ops.call('explainTrust', { id: memory.id })).witness_selection?.private_check).toBe('asked')
    expect((await quiet.ops.call('explainTrust', { id: memory.id })).witness_selection?.private_check).toBe('not-sampled')
    expect((await off.ops.call('explainTrust', { id: memory.id })).witness_selection?.private_check).toBeUndefined()
    // Decided (asked, or its coin said no) or failed: both show, in the explanation and the counters.
    const ownState = await until(async () => {
      const state = (await ownRandom.ops.call('explainTrust', { id: memory.id })).witness_selection?.private_check
      const failed = (await ownRandom.ops.call('networkStats', {})).witness?.private_checks.failed ?? 0
      return state ?? (failed > 0 ? 'failed' : undefined)
    }, 'the own-randomness node\'s decision')
    const decided = (await ownRandom.ops.call('networkStats', {})).witness!.private_checks
    expect(decided).toEqual({ due: 1, asked: ownState === 'asked' ? 1 : 0, failed: 0 })
    expect(['asked', 'not-sampled']).toContain(ownState)
    await sleep(1000)
    const requests = (await heldAt(witness.ops, memory.id)).requests
    const expected = [askingHome.agent, ...(decided.asked === 1 ? [ownRandomHome.agent] : [])]
    expect(requests.map((r) => r.record.requester).sort(), 'the asking nodes\' requests only').toEqual(expected.sort())
  }, 90_000)
})

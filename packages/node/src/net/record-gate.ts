import type { CID } from 'multiformats/cid'
import { IsnadError, isIsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { cidString, recordBytesIn, verifyRecordBytes, verifyRecordBytesAsync, type VerifiedRecord } from '../record/index.js'
import { cidOfBytesNative, sameBytes } from '../fast-crypto/index.js'
import type { RecordKeyCheck } from '../key-events/index.js'
import { MAX_RECORD_BYTES, type RecordKind } from '../schema/index.js'
import { BoundedMap } from '../collections/index.js'
import { VERIFIED_CACHE_SIZE, RECEIVED_VERIFY_CONCURRENCY } from './constants.js'
import type { NetHost } from './host.js'

/** 86 base64 characters: the text of every well-formed Ed25519 signature (record-v1 R9). */
const SIGNATURE_CHARS = 86
/** `a2 66 "record"` before the record, `69 "signature" 78 56` and the signature after it. */
const MIN_SIGNED_BYTES = 8 + 10 + 2 + SIGNATURE_CHARS + 1
const utf8 = new TextDecoder('utf-8', { fatal: false })

/**
 * The id of a signed record read from its bytes without decoding them (gossip-v1 R4): the
 * canonical encoding of `{ record, signature }` is fixed bytes around the record's own encoding
 * (record-v1 §2.4), so the record part is a slice and its CID one SHA-256. Undefined when the bytes
 * are not laid out that way: such bytes are not canonical and full verification refuses them.
 */
export function peekRecordId (bytes: Uint8Array): string | undefined {
  const cid = peekRecordCid(bytes)
  return cid === undefined ? undefined : cidString(cid)
}

/** peekRecordId's CID, which the gate hands on to verification so that it does not hash the record again. */
function peekRecordCid (bytes: Uint8Array): CID | undefined {
  if (bytes.length < MIN_SIGNED_BYTES || bytes.length > MAX_RECORD_BYTES) return undefined
  const signature = utf8.decode(bytes.subarray(bytes.length - SIGNATURE_CHARS))
  const recordBytes = recordBytesIn(bytes, signature)
  // node:crypto's SHA-256: every record received is peeked, and @noble/hashes costs twice as much.
  return recordBytes === undefined ? undefined : cidOfBytesNative(recordBytes)
}

/** A received record's bytes and what peeking at them gave: its CID and id, or undefined for both. */
interface Peeked {
  bytes: Uint8Array
  cid: CID | undefined
  id: string | undefined
}

function peek (bytes: Uint8Array): Peeked {
  const cid = peekRecordCid(bytes)
  return { bytes, cid, id: cid === undefined ? undefined : cidString(cid) }
}

/**
 * What the gate says about received bytes:
 * - `verified`: passed every check now (one signature verification);
 * - `cached`: the same bytes passed verification recently (none);
 * - `known`: the host already stores the record (none);
 * - `ignored`: valid as far as checked, but not acceptable now (dated in the future);
 * - `invalid`: the sender is at fault (bad signature, schema, kind, non-canonical bytes…).
 */
export type GateResult =
  | { status: 'verified', id: string, record: VerifiedRecord }
  | { status: 'cached', id: string, record: VerifiedRecord }
  | { status: 'known', id: string }
  | { status: 'ignored', id: string | undefined, error: IsnadError }
  | { status: 'invalid', id: string | undefined, error: IsnadError }

function tooLarge (bytes: Uint8Array): GateResult {
  return { status: 'invalid', id: undefined, error: new IsnadError('RECORD_TOO_LARGE', `record of ${bytes.length} bytes exceeds ${MAX_RECORD_BYTES}`) }
}

/** Where a signature is checked: on this thread, or wherever the verifier's async form checks it (its threads). */
type VerifyWhere = 'here' | 'anywhere'

/**
 * @default 2 — records `check` verifies on this thread per turn of the event loop; those beyond (a
 * burst read from one stream at once) go to the verifier's async form, off this thread.
 */
export const LONE_CHECKS_PER_TURN = 2

/** Ids gathered for one call of the host's `has`, and the checks waiting for their slice of its answer. */
interface HostQuestion {
  ids: string[]
  waiting: Array<{ from: number, to: number, resolve: (known: boolean[]) => void, reject: (err: unknown) => void }>
}

export interface RecordGateInit {
  host: NetHost
  verifier: SignatureVerifier
  clock: () => number
  /** Key history check after the signature (the node's keyring); absent: none. */
  keys?: RecordKeyCheck
  /** @default VERIFIED_CACHE_SIZE */
  cacheSize?: number
}

/**
 * The one place where the network verifies records (gossip-v1 §3, fetch-v1 §4, sync-v1 §5):
 * duplicates are recognised by id before any signature check, and a record verified on one path
 * (gossip) is not verified again on another (fetch, sync) while the host is still storing it.
 */
export class RecordGate {
  private readonly host: NetHost
  private readonly verifier: SignatureVerifier
  private readonly clock: () => number
  private readonly keys: RecordKeyCheck | undefined
  private readonly recent: BoundedMap<string, VerifiedRecord>
  /** Verifications under way, so a record arriving by two paths at once is still checked once. */
  private readonly inflight = new Map<string, { bytes: Uint8Array, result: Promise<GateResult> }>()
  /** Ids asked of the host by checks begun since the microtask queue last ran dry: one `has` call for all of them. */
  private asking: HostQuestion | undefined
  /** Verification pipelines this gate ran (at most one signature check each). */
  verifications = 0
  /** Calls of the host's `has` (each answers the checks of one turn, see ask). */
  hostCalls = 0
  /** `check` calls that verified in this turn of the event loop (whereToVerify). */
  private checksThisTurn = 0

  constructor (init: RecordGateInit) {
    this.host = init.host
    this.verifier = init.verifier
    this.clock = init.clock
    this.keys = init.keys
    this.recent = new BoundedMap(init.cacheSize ?? VERIFIED_CACHE_SIZE)
  }

  /** A record verified recently by this gate, for serving fetches before the host stored it. */
  recentBytes (id: string): Uint8Array | undefined {
    return this.recent.get(id)?.bytes
  }

  /** A record verified recently by this gate (its author, its kind), before the host stored it. */
  recentRecord (id: string): VerifiedRecord | undefined {
    return this.recent.get(id)
  }

  /** Remembers a record this node verified or built itself (its own publications). */
  remember (record: VerifiedRecord): void {
    this.recent.set(record.id, record)
  }

  /**
   * checkMany for one input, the same steps and results without a batch's bookkeeping (its arrays,
   * workers and closures): gossipsub validates each message of a burst on its own. A lone message's
   * signature is checked on this thread: gossipsub forwards a message only once its validator has
   * answered, so a hop to a verifier thread (or libuv's pool) and back would be paid at every hop of
   * the message's way through the network, and on a loaded machine that hop costs far more than the
   * check. Past LONE_CHECKS_PER_TURN in one turn (a burst), the rest go to the verifier's threads.
   */
  async check (bytes: Uint8Array, expectedKind?: RecordKind): Promise<GateResult> {
    if (bytes.length > MAX_RECORD_BYTES) return tooLarge(bytes) // gossip-v1 R1
    const input = peek(bytes)
    if (input.id !== undefined) {
      const [known] = await this.ask([input.id]) // gossip-v1 R5
      const settled = this.settledWithoutVerifying(input.id, known, bytes, expectedKind)
      if (settled !== undefined) return this.checkKey(settled)
    }
    return this.checkKey(await this.verifyOnce(input, expectedKind, this.whereToVerify()))
  }

  /** 'here' for the first LONE_CHECKS_PER_TURN checks of this turn of the event loop. */
  private whereToVerify (): VerifyWhere {
    if (this.checksThisTurn === 0) setImmediate(() => { this.checksThisTurn = 0 })
    return ++this.checksThisTurn <= LONE_CHECKS_PER_TURN ? 'here' : 'anywhere'
  }

  /**
   * Checks a batch: ids peeked, one `has` call for all of them, then the unknown ones verified with
   * up to RECEIVED_VERIFY_CONCURRENCY signatures in flight. Results are in input order.
   */
  async checkMany (inputs: readonly Uint8Array[], expectedKind?: RecordKind): Promise<GateResult[]> {
    const results = new Array<GateResult | undefined>(inputs.length)
    const peeked = inputs.map(peek)
    const ask: number[] = []
    inputs.forEach((bytes, i) => {
      if (bytes.length > MAX_RECORD_BYTES) { // gossip-v1 R1: size before anything else
        results[i] = tooLarge(bytes)
      } else if (peeked[i]?.id !== undefined) {
        ask.push(i)
      }
    })
    // gossip-v1 R5: what the host stores is a duplicate, whatever else is true of these bytes.
    const known = ask.length === 0 ? [] : await this.ask(ask.map((i) => peeked[i]?.id as string))
    ask.forEach((i, k) => {
      results[i] = this.settledWithoutVerifying(peeked[i]?.id as string, known[k], inputs[i] as Uint8Array, expectedKind)
    })
    const pending = inputs.map((_, i) => i).filter((i) => results[i] === undefined)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < pending.length) {
        const i = pending[next++] as number
        results[i] = await this.verifyOnce(peeked[i] as Peeked, expectedKind)
      }
    }
    await Promise.all(Array.from({ length: Math.min(RECEIVED_VERIFY_CONCURRENCY, pending.length) }, worker))
    return (results as GateResult[]).map((result) => this.checkKey(result))
  }

  /**
   * The host's `has` for `ids`, asked together with those of every other check begun before the
   * microtask queue runs dry (process.nextTick): gossipsub validates each message of a burst on
   * its own (one id per check), and a LevelDB `has` call costs far more than an id in it. The
   * answers are the same; a failure fails every check that asked.
   */
  private async ask (ids: readonly string[]): Promise<boolean[]> {
    return await new Promise<boolean[]>((resolve, reject) => {
      let asking = this.asking
      if (asking === undefined) {
        asking = { ids: [], waiting: [] }
        this.asking = asking
        process.nextTick(() => { this.askHost() })
      }
      const from = asking.ids.length
      for (const id of ids) asking.ids.push(id)
      asking.waiting.push({ from, to: asking.ids.length, resolve, reject })
    })
  }

  private askHost (): void {
    const asking = this.asking
    this.asking = undefined
    if (asking === undefined) return
    this.hostCalls++
    let answer: Promise<boolean[]>
    try {
      answer = this.host.has(asking.ids)
    } catch (err) {
      answer = Promise.reject(err)
    }
    answer.then((known) => {
      for (const { from, to, resolve } of asking.waiting) resolve(known.slice(from, to))
    }, (err: unknown) => {
      for (const { reject } of asking.waiting) reject(err)
    })
  }

  /**
   * record-v1 K12 after the signature: a record of a key rotated out or revoked at the record's time
   * is ignored, not invalid: the relay may not have the key event yet (gossip-v1 R13).
   */
  private checkKey (result: GateResult): GateResult {
    if (this.keys === undefined || (result.status !== 'verified' && result.status !== 'cached')) return result
    const refused = this.keys.checkRecord(result.record.signed, result.id)
    return refused === undefined ? result : { status: 'ignored', id: result.id, error: refused }
  }

  /**
   * The result for bytes whose id was peeked, when no verification is needed: stored at the host
   * (gossip-v1 R5, a duplicate whatever else is true of the bytes), or the same bytes verified
   * recently. Undefined: the bytes must be verified.
   */
  private settledWithoutVerifying (id: string, known: boolean | undefined, bytes: Uint8Array, expectedKind: RecordKind | undefined): GateResult | undefined {
    if (known === true) return { status: 'known', id }
    const cached = this.recent.get(id)
    return cached !== undefined && sameBytes(cached.bytes, bytes) ? this.reuse(cached, expectedKind) : undefined
  }

  /** A recently verified record is reused without a signature check, but only for the right kind (R3). */
  private reuse (record: VerifiedRecord, expectedKind: RecordKind | undefined): GateResult {
    const { kind } = record.signed.record
    if (expectedKind === undefined || kind === expectedKind) return { status: 'cached', id: record.id, record }
    return { status: 'invalid', id: record.id, error: new IsnadError('WRONG_KIND', `expected a ${expectedKind} record, got ${kind}`) }
  }

  private async verifyOnce (input: Peeked, expectedKind: RecordKind | undefined, where: VerifyWhere = 'anywhere'): Promise<GateResult> {
    const { bytes, id } = input
    const running = id === undefined ? undefined : this.inflight.get(id)
    if (running !== undefined && sameBytes(running.bytes, bytes)) {
      const result = await running.result
      if (result.status === 'verified' || result.status === 'cached') return this.reuse(result.record, expectedKind)
      // Failed for another expected kind: this caller's kind may be the right one.
      if (!(result.status === 'invalid' && result.error.code === 'WRONG_KIND')) return result
    }
    const result = this.verify(input, expectedKind, where)
    if (id === undefined) return await result
    this.inflight.set(id, { bytes, result })
    try {
      return await result
    } finally {
      if (this.inflight.get(id)?.result === result) this.inflight.delete(id)
    }
  }

  private async verify ({ bytes, cid, id }: Peeked, expectedKind: RecordKind | undefined, where: VerifyWhere): Promise<GateResult> {
    try {
      this.verifications++
      const options = { verifier: this.verifier, now: this.clock(), expectedKind, recordCid: cid }
      const record = where === 'here' ? verifyRecordBytes(bytes, options) : await verifyRecordBytesAsync(bytes, options)
      this.recent.set(record.id, record)
      return { status: 'verified', id: record.id, record }
    } catch (err) {
      if (!isIsnadError(err)) throw err
      // gossip-v1 R7: a record from the future may be an honest clock difference: not the sender's fault.
      return err.code === 'TIMESTAMP_IN_FUTURE' ? { status: 'ignored', id, error: err } : { status: 'invalid', id, error: err }
    }
  }
}

import { performance } from 'node:perf_hooks'
import type { SignatureVerifier } from '../src/identity/index.js'
import { nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import type { AcceptSource, NetHost, RecordPage } from '../src/net/index.js'
import type { VerifiedRecord } from '../src/record/index.js'

/*
 * The light node of the gossip benchmark: an in-memory NetHost that keeps what the network hands it
 * and when, and a verifier that counts. The network layer verifies every received record itself
 * (src/net RecordGate, with the verifier given to createNetwork), so this host stores what `accept`
 * gets, as the daemon's host does; the signature checks counted are the node's real ones.
 */

/** nodeCryptoVerifier counting its calls, in total and per signing input (domain tag ‖ CID: one record). */
export class CountingVerifier implements SignatureVerifier {
  readonly name = 'counting node:crypto'
  /**
   * The node's record fast paths, as the daemon's verifier (nodeCryptoVerifier) brings them to the
   * network's record gate; without them the gate ran the portable paths, which no daemon does.
   * Records verified whole on the verifier threads (src/fast-crypto/record-threads.ts) are not counted.
   */
  readonly recordFastPaths = nodeCryptoVerifier.recordFastPaths
  readonly calls = new Map<string, number>()
  total = 0

  verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean => {
    this.count(message)
    return nodeCryptoVerifier.verify(signature, message, publicKey)
  }

  verifyAsync = async (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> => {
    this.count(message)
    return await (nodeCryptoVerifier.verifyAsync?.(signature, message, publicKey) ?? nodeCryptoVerifier.verify(signature, message, publicKey))
  }

  /** The most verifications of any one record. */
  get maxPerRecord (): number {
    return Math.max(0, ...this.calls.values())
  }

  private count (message: Uint8Array): void {
    this.total++
    const key = Buffer.from(message.buffer, message.byteOffset, message.byteLength).toString('base64')
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1)
  }
}

/**
 * A NetHost in memory: records in arrival order (the log sync-v1 serves), cursors per peer, and the
 * `performance.now()` at which each record was first accepted (stored).
 */
export class BenchHost implements NetHost {
  readonly records = new Map<string, VerifiedRecord>()
  readonly log: string[] = []
  readonly cursors = new Map<string, number>()
  readonly arrivals = new Map<string, number>()
  /** Records handed over again after they were stored: the network should prevent these. */
  duplicates = 0

  /** Stores a record this node made itself, as a node does before it publishes it. */
  putLocal (record: VerifiedRecord): void {
    if (this.records.has(record.id)) return
    this.records.set(record.id, record)
    this.log.push(record.id)
  }

  async has (ids: readonly string[]): Promise<boolean[]> {
    return ids.map((id) => this.records.has(id))
  }

  async accept (records: readonly VerifiedRecord[], _source: AcceptSource): Promise<void> {
    const now = performance.now()
    for (const record of records) {
      if (this.records.has(record.id)) {
        this.duplicates++
        continue
      }
      this.arrivals.set(record.id, now)
      this.putLocal(record)
    }
  }

  async get (id: string): Promise<Uint8Array | null> {
    return this.records.get(id)?.bytes ?? null
  }

  async recordsSince (cursor: number, limit: number): Promise<RecordPage> {
    const ids = this.log.slice(cursor, cursor + limit)
    return { records: ids.map((id) => (this.records.get(id) as VerifiedRecord).bytes), next: cursor + ids.length }
  }

  async loadCursor (peerId: string): Promise<number | null> {
    return this.cursors.get(peerId) ?? null
  }

  async saveCursor (peerId: string, cursor: number): Promise<void> {
    this.cursors.set(peerId, cursor)
  }
}

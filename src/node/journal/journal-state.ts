import { Level } from 'level'
import { IsnadError } from '../../errors/index.js'
import type { IdempotencyIndex } from '../../ledger/index.js'
import { createLevelNodeStore, openMerkleLog, type MerkleLog, type SignedCheckpoint } from '../../merkle/index.js'
import type { LedgerEvent } from '../../schema/index.js'

const INDEXED_LC = 'indexed_lc'
const LATEST_CHECKPOINT = 'checkpoint'

/**
 * The journal's derived state in its own LevelDB (`.memory/index/journal/`), rebuilt by reindex
 * from the ledgers alone: idempotency keys of every event, the Merkle log's subtree hashes, how far
 * the index has applied the ledger (`indexed_lc`), and the checkpoints seen per log.
 */
export class JournalState {
  readonly merkle: MerkleLog
  private readonly db: Level<string, string>
  private readonly keys
  private readonly meta
  private readonly checkpoints

  private constructor (db: Level<string, string>, merkle: MerkleLog) {
    this.db = db
    this.merkle = merkle
    this.keys = db.sublevel<string, string>('keys', { valueEncoding: 'utf8' })
    this.meta = db.sublevel<string, string>('meta', { valueEncoding: 'utf8' })
    this.checkpoints = db.sublevel<string, string>('checkpoints', { valueEncoding: 'utf8' })
  }

  static async open (location: string): Promise<JournalState> {
    const db = new Level<string, string>(location, { valueEncoding: 'utf8' })
    try {
      await db.open()
    } catch (cause) {
      throw new IsnadError('STORE_LOCKED', 'the data directory is in use by another isnad process (a running daemon?)', { cause })
    }
    const nodes = db.sublevel<string, Uint8Array>('merkle', { valueEncoding: 'view' })
    return new JournalState(db, await openMerkleLog({ store: createLevelNodeStore(nodes) }))
  }

  async close (): Promise<void> {
    await this.db.close()
  }

  /** The event ledger's idempotency across restarts (spec §8), backed by this LevelDB. */
  idempotency (): IdempotencyIndex {
    return {
      lookup: async (keys) => {
        const ids = await this.keys.getMany([...keys])
        const found = new Map<string, string>()
        keys.forEach((key, i) => { const id = ids[i]; if (id !== undefined) found.set(key, id) })
        return found
      },
      record: async (events: readonly LedgerEvent[]) => {
        await this.keys.batch(events.map((e) => ({ type: 'put' as const, key: e.idempotency_key, value: e.event_id })))
      }
    }
  }

  async indexedLc (): Promise<number> {
    return Number(await this.meta.get(INDEXED_LC) ?? '0')
  }

  /** Written only after the index holds everything up to `lc`, so it never runs ahead. */
  async setIndexedLc (lc: number): Promise<void> {
    await this.meta.put(INDEXED_LC, String(lc))
  }

  async latestCheckpoint (): Promise<SignedCheckpoint | null> {
    const text = await this.meta.get(LATEST_CHECKPOINT)
    return text === undefined ? null : JSON.parse(text) as SignedCheckpoint
  }

  async setLatestCheckpoint (checkpoint: SignedCheckpoint): Promise<void> {
    await this.meta.put(LATEST_CHECKPOINT, JSON.stringify(checkpoint))
  }

  /** The checkpoint already seen for this log at this size, if any (equivocation detection). */
  async observedCheckpoint (log: string, size: number): Promise<SignedCheckpoint | null> {
    const text = await this.checkpoints.get(`${log}\0${String(size).padStart(16, '0')}`)
    return text === undefined ? null : JSON.parse(text) as SignedCheckpoint
  }

  async observeCheckpoint (checkpoint: SignedCheckpoint): Promise<void> {
    const { log, size } = checkpoint.record
    await this.checkpoints.put(`${log}\0${String(size).padStart(16, '0')}`, JSON.stringify(checkpoint))
  }
}

import { IsnadError } from '../../errors/index.js'
import { ALL_SCOPE } from './key-layout.js'
import type { Sublevels, WriteBatch } from './sublevels.js'

/*
 * The numbers the index gives its query scopes (layout 7, the `d` sublevel: key-layout.ts): a
 * scope (`a`, a tag, an author, a content type) is spelled out once, under its number, and every
 * query key and memory entry names it by the number (a varint of 1–3 bytes where a did:key scope
 * took 58). `a` is always 0. The same dictionary names the trust levels and policies of memory
 * entries (`L NUL <level>`, `P NUL <policy>`: memory-entry.ts), which no query asks for. Kept in memory both ways while the store is open: the dictionary
 * holds one entry per distinct tag, author and type. Numbers are given by the write queue inside
 * the batch that first uses them; until it commits they are pending, so a batch that fails leaves
 * no number behind in memory that LevelDB lacks (as RecordValues does for file numbers).
 */

export class ScopeNames {
  private readonly names = new Map<number, string>([[0, ALL_SCOPE]])
  private readonly numbers = new Map<string, number>([[ALL_SCOPE, 0]])
  private pending = new Map<string, number>()
  private pendingNames = new Map<number, string>()
  private next = 1

  async load (subs: Sublevels, location: string): Promise<void> {
    this.names.clear()
    this.numbers.clear()
    this.names.set(0, ALL_SCOPE)
    this.numbers.set(ALL_SCOPE, 0)
    this.settle(false)
    this.next = 1
    for (const [key, scope] of await subs.scopes.iterator().all()) {
      const n = Number(key)
      if (!Number.isSafeInteger(n) || n < 1 || this.numbers.has(scope)) {
        throw new IsnadError('INDEX_CORRUPT', `the index at ${location} names scope #${key} twice or wrongly: rebuild it with \`isnad ledger reindex\``, { details: { location } })
      }
      this.names.set(n, scope)
      this.numbers.set(scope, n)
      this.next = Math.max(this.next, n + 1)
    }
  }

  /** The number of a scope some committed batch used; undefined when no memory was ever in it. */
  known (scope: string): number | undefined {
    return this.numbers.get(scope)
  }

  /** The scope's number, given now (in `batch`, pending until it commits) when it has none. */
  assign (scope: string, batch: WriteBatch): number {
    const known = this.numbers.get(scope) ?? this.pending.get(scope)
    if (known !== undefined) return known
    const n = this.next + this.pending.size
    this.pending.set(scope, n)
    this.pendingNames.set(n, scope)
    batch.put('scopes', String(n), scope)
    return n
  }

  /**
   * The scope a number names: committed, or pending (a batch that has committed and is not
   * settled yet: its entries may be read in between).
   */
  nameOf (n: number): string | undefined {
    return this.names.get(n) ?? this.pendingNames.get(n)
  }

  /** After the batch committed (true) or failed (false): its new numbers are kept or forgotten. */
  settle (committed: boolean): void {
    if (committed) {
      for (const [scope, n] of this.pending) {
        this.names.set(n, scope)
        this.numbers.set(scope, n)
        this.next = Math.max(this.next, n + 1)
      }
    }
    this.pending = new Map()
    this.pendingNames = new Map()
  }
}

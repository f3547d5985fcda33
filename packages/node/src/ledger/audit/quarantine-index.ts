import type { QuarantinedFile } from './walk.js'

/**
 * What repair quarantined (archive/quarantine/). A quarantined event shard takes its
 * events out of every reader, so the Lamport sequence and the Merkle log have a hole afterwards. The
 * audit keeps reporting such holes, but as warnings when a quarantined shard explains them: shards
 * are daily (spec §4) and lc grows with time, so a hole between events of days `from` and `to` is
 * explained by a quarantined shard of the same scope (and instance, for a stream shard) whose day
 * lies between. The lines themselves may be unreadable, so their lcs cannot be known exactly; the
 * day is what the path still tells.
 */
export class QuarantineIndex {
  private readonly shards: QuarantinedFile[]

  constructor (files: readonly QuarantinedFile[]) {
    this.shards = files.filter((f) => f.day !== undefined && f.scope !== undefined)
  }

  /**
   * The quarantined shard that explains a hole of `instance` in `scope` between days `from` and
   * `to` (inclusive; undefined = unbounded), if any. `instance` undefined matches any shard.
   */
  explains (scope: string, instance: string | undefined, from: string | undefined, to: string | undefined): string | undefined {
    for (const shard of this.shards) {
      if (shard.scope !== scope) continue
      if (instance !== undefined && shard.instance !== undefined && shard.instance !== instance) continue
      const day = shard.day as string
      if ((from === undefined || day >= from) && (to === undefined || day <= to)) return shard.rel
    }
    return undefined
  }
}

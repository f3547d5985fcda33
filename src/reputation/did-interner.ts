/**
 * DIDs → stable integers, kept by a caller across reputation computations (the node's reputation
 * service owns one; the core keeps no state between calls). A VoteSet numbers its graph nodes per
 * computation, in first-sight order as before, through per-computation typed arrays indexed by these
 * ids, so a recomputation over the same agents looks every DID up in a Map that no longer grows:
 * figure 10 built a fresh 100k-entry Map per computation, and with 1M stored attestations on the
 * heap its garbage is what set off an old-space collection (≈ 1.5 s) each time.
 * Grows with every DID it is asked about; a caller bounds it by replacing it (the service does on a
 * reload from the store).
 */
export class DidInterner {
  private readonly ids = new Map<string, number>()

  /** The DID's id, assigned on first sight (0, 1, 2, … in order). */
  idOf (did: string): number {
    const id = this.ids.get(did)
    if (id !== undefined) return id
    const next = this.ids.size
    this.ids.set(did, next)
    return next
  }

  /** The DID's id, or undefined when it was never interned (a lookup adds nothing). */
  find (did: string): number | undefined {
    return this.ids.get(did)
  }

  /** DIDs interned so far. */
  get size (): number {
    return this.ids.size
  }
}

/*
 * Who holds each message. A message published in one epoch reaches every online node of its
 * publisher's component (gossip, with IHAVE repair where the mesh does not reach), so the messages of
 * one (epoch, component) share one holder set: a group. sync-v1 on a reconnection (a node joining
 * again, a partition healing, an observer's catch-up at the end) hands a node everything its peer
 * holds, which adds the node to whole groups at once; groups never split, so one set per group stays
 * exact however many messages it carries.
 */

export class HolderGroup {
  readonly members: Uint8Array
  /** Message indexes (memories and attestations) the group's members hold. */
  readonly messages: number[] = []
  /** Answer slots whose witness request was published to this group without reaching its witness. */
  pending: number[] = []

  /** The shard its messages travel on (0 with one shard). */
  shard = 0

  constructor (size: number, readonly id: number) {
    this.members = new Uint8Array(size)
  }
}

export class Holders {
  readonly groups: HolderGroup[] = []
  private readonly byComponent = new Map<number, HolderGroup>()
  private lastEpoch = -1

  constructor (private readonly size: number) {}

  /**
   * The group of component `component` and shard `shard` (of `shards`) in epoch `epoch`, created with
   * `members` on first use.
   */
  groupOf (epoch: number, component: number, members: () => Iterable<number>, shard = 0, shards = 1): HolderGroup {
    if (epoch !== this.lastEpoch) {
      this.byComponent.clear()
      this.lastEpoch = epoch
    }
    const key = component * shards + shard
    let group = this.byComponent.get(key)
    if (group === undefined) {
      group = new HolderGroup(this.size, this.groups.length)
      group.shard = shard
      for (const m of members()) group.members[m] = 1
      this.groups.push(group)
      this.byComponent.set(key, group)
    }
    return group
  }

  /**
   * Syncs over `pairs` at once (each [puller, peer]: the puller receives what the peer held before
   * any of these syncs); calls `gained` for each node added to a group. Sync is by interest: a puller
   * joins only the groups `wants` lets it (its shards); for the others `passed` sees what its peer
   * holds (a witness request addressed to it travels on its own shard too).
   */
  sync (
    pairs: ReadonlyArray<readonly [number, number]>,
    gained: (group: HolderGroup, node: number) => void,
    wants: (group: HolderGroup, node: number) => boolean = () => true,
    passed: (group: HolderGroup, node: number) => void = () => {}
  ): void {
    for (const group of this.groups) {
      const added: number[] = []
      for (const [puller, peer] of pairs) {
        if (group.members[peer] === 1 && group.members[puller] !== 1) added.push(puller)
      }
      for (const node of added) {
        if (group.members[node] === 1) continue
        if (!wants(group, node)) { passed(group, node); continue }
        group.members[node] = 1
        gained(group, node)
      }
    }
  }
}

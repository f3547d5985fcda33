import type { PopulationClaim } from '../draw/index.js'
import { IsnadError } from '../errors/index.js'
import type { AttestationVerdict } from '../schema/index.js'
import type { KeyIdentities } from '../trust/index.js'

/** @default 2^24 — agents in one graph; keeps every (witness, author, verdict) key an exact double. */
export const MAX_GRAPH_AGENTS = 2 ** 24

/**
 * A fourth vote code beside the verdicts: the author of a memory acknowledging a witness that
 * confirmed it (docs/trust.md §3). It joins the walk (the author's standing passes to who confirms it), never
 * an endorsement.
 */
export const ACKNOWLEDGE_CODE = 3

export const VERDICT_CODES: Readonly<Record<AttestationVerdict, number>> = Object.freeze({ confirm: 0, partial: 1, dispute: 2 })

/**
 * The counted votes of a graph, as integers: every agent's DID is interned once (a Map lookup per
 * string the first time it is seen, identity resolution included), and each vote is one exact double
 * ((witness · 2^24) + author) · 4 + verdict. No per-vote object: 1M attestations cost one growable
 * Float64Array (bench/reputation.ts), and buildGraphFromVotes sorts it natively.
 */
export class VoteSet {
  /** Graph node names: identities (a key a resolver maps to an identity is interned as that identity). */
  readonly agents: string[] = []
  /** The populations the counted attestations' draws state, by identity (N̂'s input, src/draw populationEstimate). */
  readonly populationClaims: PopulationClaim[] = []
  /** Every DID seen (keys and identities) → its graph node · 2, plus 1 when a key log names the DID. */
  private readonly seen = new Map<string, number>()
  private keyBuffer = new Float64Array(1024)
  private length = 0

  constructor (private readonly identities?: KeyIdentities) {}

  /**
   * The DID's entry: its graph node (its identity's when the resolver names one) · 2, plus 1 when a
   * key log names the DID (its signatures must then be checked against the log's times). Interned on
   * first sight, so the resolver is asked once per DID, never per vote.
   */
  entry (did: string): number {
    // Without a resolver every DID is its own identity and no log names it: the node map alone
    // (figure 10: one Map of 100k DIDs fewer to build and collect).
    if (this.identities === undefined) {
      const node = this.nodes.get(did)
      return node === undefined ? this.intern(did) * 2 : node * 2
    }
    const known = this.seen.get(did)
    if (known !== undefined) return known
    const identity = this.identities.identityOf(did)
    const node = this.nodes.get(identity) ?? this.intern(identity)
    const value = node * 2 + (this.identities.named(did) ? 1 : 0)
    this.seen.set(did, value)
    return value
  }

  /** A new graph node named `identity` (not yet in `nodes`). */
  private intern (identity: string): number {
    const node = this.agents.length
    if (node >= MAX_GRAPH_AGENTS) throw new IsnadError('USAGE', `more than ${MAX_GRAPH_AGENTS} agents in one reputation graph`)
    this.agents.push(identity)
    this.nodes.set(identity, node)
    return node
  }

  /** The graph node of a DID, interned on first sight. */
  agent (did: string): number {
    return this.entry(did) >>> 1
  }

  /** Whether `did` (a key or identity seen before) could sign at `at` by its key log; true when no log names it. */
  couldSign (did: string, entry: number, at: number): boolean {
    return (entry & 1) === 0 || this.identities?.refusalAt(did, at) === undefined
  }

  /** The identity a DID votes as (itself without a resolver, or when no key log names it). */
  identityOf (did: string): string {
    return this.identities?.identityOf(did) ?? did
  }

  /** Graph nodes by identity name (what `describe` and the roots look up). */
  readonly nodes = new Map<string, number>()

  /** One counted vote by graph nodes; a node never witnesses itself (docs/trust.md §0), so that vote is dropped. */
  add (witness: number, author: number, verdict: number): void {
    if (witness === author) return
    if (this.length === this.keyBuffer.length) {
      const grown = new Float64Array(this.keyBuffer.length * 2)
      grown.set(this.keyBuffer)
      this.keyBuffer = grown
    }
    this.keyBuffer[this.length++] = (witness * MAX_GRAPH_AGENTS + author) * 4 + verdict
  }

  /*
   * Claims (docs/trust.md §3): the agents that gave one verdict on one memory, side by side. Agents who made
   * the same claim agree; a claim and another verdict on the same memory contradict. Kept as flat
   * growable arrays: claim k's members are claimMembers[claimStarts[k] … claimStarts[k+1]), and the
   * claims of one memory are consecutive (claimMemory tells where a memory's claims end).
   */
  private members = new Int32Array(1024)
  /** Per member: the index of its verified draw in `memberDraws`, or −1 (not drawn, or no draw). */
  private memberDrawIndex = new Int32Array(1024)
  /**
   * The draws of claim members whose fraction is below size / population (docs/trust.md §3, "drawn
   * agreement"): whether the node accepts the stated population is judged against the graph's
   * agents once it is built (reputation.ts drawnMembersOf).
   */
  readonly memberDraws: MemberDraw[] = []
  private memberCount = 0
  private starts = new Int32Array(256)
  private verdicts = new Uint8Array(256)
  private memoryOf = new Int32Array(256)
  private claimCount = 0
  /** Per memory ordinal: the memory's id (from its attestations' `memory`) and its author's graph node. */
  readonly memoryIds: string[] = []
  readonly memoryAuthors: number[] = []

  /** Names memory `ordinal`: its id and its author's graph node (the confirm record, confirm-record.ts, reads them). */
  memory (ordinal: number, id: string, author: number): void {
    this.memoryIds[ordinal] = id
    this.memoryAuthors[ordinal] = author
  }

  /** One claim: `count` graph nodes of `nodes` gave `verdict` (a VERDICT_CODES value) on memory `memory` (an ordinal). */
  claim (memory: number, verdict: number, nodes: Int32Array | readonly number[], count: number, draws?: Int32Array): void {
    if (count === 0) return
    if (this.claimCount + 1 >= this.starts.length) {
      this.starts = grownInt(this.starts, this.starts.length * 2)
      this.memoryOf = grownInt(this.memoryOf, this.memoryOf.length * 2)
      const verdicts = new Uint8Array(this.verdicts.length * 2)
      verdicts.set(this.verdicts)
      this.verdicts = verdicts
    }
    if (this.memberCount + count > this.members.length) {
      const size = Math.max(this.members.length * 2, this.memberCount + count)
      this.members = grownInt(this.members, size)
      this.memberDrawIndex = grownInt(this.memberDrawIndex, size)
    }
    this.starts[this.claimCount] = this.memberCount
    this.verdicts[this.claimCount] = verdict
    this.memoryOf[this.claimCount] = memory
    for (let i = 0; i < count; i++) {
      this.memberDrawIndex[this.memberCount] = draws === undefined ? -1 : draws[i] as number
      this.members[this.memberCount++] = nodes[i] as number
    }
    this.claimCount++
    this.starts[this.claimCount] = this.memberCount
  }

  /** The claims recorded: offsets (claims + 1), members, verdict codes and memory ordinals. */
  claims (): { offsets: Int32Array<ArrayBuffer>, members: Int32Array<ArrayBuffer>, drawIndex: Int32Array<ArrayBuffer>, verdicts: Uint8Array<ArrayBuffer>, memories: Int32Array<ArrayBuffer> } {
    // Views, not copies (figure 10: fewer large allocations per computation); a later claim writes
    // past them or into new arrays, never inside them.
    const offsets = this.starts.subarray(0, this.claimCount + 1)
    if (this.claimCount === 0) offsets[0] = 0
    return {
      offsets,
      members: this.members.subarray(0, this.memberCount),
      drawIndex: this.memberDrawIndex.subarray(0, this.memberCount),
      verdicts: this.verdicts.subarray(0, this.claimCount),
      memories: this.memoryOf.subarray(0, this.claimCount)
    }
  }

  /** The vote keys, sorted: each witness's row in order, one pair's votes side by side. */
  sortedKeys (): Float64Array {
    return this.keyBuffer.subarray(0, this.length).sort()
  }
}

/** A claim member's draw, its fraction already below size / population: what the node must still accept. */
export interface MemberDraw {
  /** Absent: a draw the caller already judged (a readable VoteGroup's `drawn` vote). */
  population?: number
  shards?: number
  witness: number
  author: number
}

function grownInt (array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size)
  next.set(array)
  return next
}

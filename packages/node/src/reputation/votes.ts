import { drawFractionOfProof, isDrawn, type DrawPaths } from '../draw/index.js'
import { PORTABLE_FAST_PATHS, decodeSignature } from '../record/index.js'
import type { AttestationRecord } from '../schema/index.js'
import type { KeyIdentities } from '../trust/index.js'
import type { VoteGroup } from './vote-graph.js'
import { ACKNOWLEDGE_CODE, VERDICT_CODES, VoteSet } from './vote-set.js'

/** A stored attestation (its signature verified on the way in) with its id. */
export interface StoredAttestation {
  id: string
  record: AttestationRecord
  /**
   * Its draw's fraction when the caller already read it from the proof (record-v1 R19 verified the
   * proof before the record was stored); absent, collectVotes reads it from the proof.
   */
  drawFraction?: number
}

/** One memory's author and every attestation of the memory the node stores. */
export interface MemoryAttestations {
  author: string
  /** Any iterable: the reputation service hands over its maps' values without copying them. */
  attestations: Iterable<StoredAttestation>
  /**
   * The signers (`anchored_by`) of the memory's verified anchors: each joins the memory's confirm
   * claim (docs/trust.md §3: a witness that agrees with a verified anchor of a reputable signer earns from it),
   * unless it is the author or attested the memory itself (its attestation is its word).
   */
  anchoredBy?: Iterable<string>
}

/**
 * The attestations that are edges of the reputation graph, by the counting rules of src/trust:
 * graph nodes are identities (a key the resolver maps to one votes as it), never the author's own
 * identity, never a key its log refuses at the attestation's time, and one vote per (identity,
 * memory), the newest (by witnessed_at, then id), so a witness that changed its verdict counts with
 * its latest word only.
 * One pass: each DID is one Map lookup, deduplication uses a stamp per graph node (no per-memory
 * set, no per-vote object), and the votes land as integers in the VoteSet (bench/reputation.ts).
 */
export function collectVotes (memories: Iterable<MemoryAttestations>, identities?: KeyIdentities, paths: DrawPaths = PORTABLE_FAST_PATHS): VoteSet {
  const set = new VoteSet(identities)
  /** Per graph node: the ordinal (from 1) of the memory it last voted on, and its slot in `chosen`. */
  let stamp: Int32Array = new Int32Array(1024)
  let slot: Int32Array = new Int32Array(1024)
  // Reused across memories (counted, never truncated: no reallocation per memory).
  const chosen: StoredAttestation[] = []
  let chosenNodes: Int32Array = new Int32Array(64)
  let chosenVerdicts: Int32Array = new Int32Array(64)
  let claimNodes: Int32Array = new Int32Array(64)
  let chosenDraws: Int32Array = new Int32Array(64)
  let claimDraws: Int32Array = new Int32Array(64)
  let ordinal = 0
  for (const { author, attestations, anchoredBy } of memories) {
    ordinal++
    let authorNode = -1 // interned with the first attestation: a memory nobody attested adds no node
    let count = 0
    for (const a of attestations) {
      if (authorNode === -1) authorNode = set.agent(author)
      const { witness } = a.record
      const entry = set.entry(witness)
      const node = entry >>> 1
      if (node === authorNode) continue // the author's own keys never witness its memory (docs/trust.md §0)
      if ((entry & 1) === 1 && !set.couldSign(witness, entry, Date.parse(a.record.witnessed_at))) continue
      if (node >= stamp.length) {
        stamp = grown(stamp, node)
        slot = grown(slot, node)
      }
      if (stamp[node] === ordinal) {
        const at = slot[node] as number
        if (isNewer(a, chosen[at] as StoredAttestation)) chosen[at] = a
        continue
      }
      stamp[node] = ordinal
      slot[node] = count
      if (count === chosenNodes.length) chosenNodes = grown(chosenNodes, count)
      chosenNodes[count] = node
      chosen[count++] = a
    }
    if (count > chosenVerdicts.length) {
      chosenVerdicts = grown(chosenVerdicts, count)
      chosenDraws = grown(chosenDraws, count)
    }
    if (count > 0) set.memory(ordinal, (chosen[0] as StoredAttestation).record.memory, authorNode)
    for (let i = 0; i < count; i++) {
      // Each verdict's code is looked up once per vote (a keyed lookup), not once per claim pass.
      const { id, record } = chosen[i] as StoredAttestation
      const verdict = VERDICT_CODES[record.attestation]
      chosenVerdicts[i] = verdict
      chosenDraws[i] = drawOf(set, chosen[i] as StoredAttestation, chosenNodes[i] as number, authorNode, paths)
      // A counted attestation's draw states a population (witness-draw-v1 W6): N̂ reads it.
      if (record.draw !== undefined) {
        set.populationClaims.push({ id, witness: set.agents[chosenNodes[i] as number] as string, population: record.draw.population, ...(record.draw.shards === undefined ? {} : { shards: record.draw.shards }), at: Date.parse(record.witnessed_at), proof: record.draw.proof })
      }
      set.add(chosenNodes[i] as number, authorNode, verdict)
      // The author's walk passes on to who confirmed it (never an endorsement: see ACKNOWLEDGE_CODE).
      if (verdict === VERDICT_CODES.confirm) set.add(authorNode, chosenNodes[i] as number, ACKNOWLEDGE_CODE)
    }
    // Anchor signers confirm (for agreement only: an anchor is no endorsement of the author).
    let anchorers = 0
    if (anchoredBy !== undefined) {
      if (authorNode === -1) authorNode = set.agent(author)
      for (const did of anchoredBy) {
        const node = set.agent(did)
        if (node === authorNode) continue
        if (node >= stamp.length) {
          stamp = grown(stamp, node)
          slot = grown(slot, node)
        }
        if (stamp[node] === ordinal) continue // it attested the memory (its word stands), or signed two anchors
        stamp[node] = ordinal
        if (count + anchorers >= chosenNodes.length) chosenNodes = grown(chosenNodes, count + anchorers)
        chosenNodes[count + anchorers++] = node
      }
    }
    // The memory's claims, one per verdict given: who agrees with whom.
    if (count + anchorers + 1 > claimNodes.length) {
      claimNodes = grown(claimNodes, count + anchorers + 1)
      claimDraws = grown(claimDraws, count + anchorers + 1)
    }
    for (let verdict = 0; verdict < 3; verdict++) {
      let members = 0
      for (let i = 0; i < count; i++) {
        if (chosenVerdicts[i] === verdict) {
          claimDraws[members] = chosenDraws[i] as number
          claimNodes[members++] = chosenNodes[i] as number
        }
      }
      if (verdict === VERDICT_CODES.confirm) {
        for (let i = count; i < count + anchorers; i++) {
          claimDraws[members] = -1 // an anchor's signer was not drawn for the memory
          claimNodes[members++] = chosenNodes[i] as number
        }
        // The author is no member: a self-report never counts as a confirm (docs/trust.md §3).
      }
      set.claim(ordinal, verdict, claimNodes, members, claimDraws)
    }
  }
  return set
}

/**
 * The counted votes as readable groups (one per memory with any), for tests and explanations;
 * `collectVotes` is what the node and the benchmark use.
 */
export function votesOf (memories: Iterable<MemoryAttestations>, identities?: KeyIdentities): VoteGroup[] {
  const groups: VoteGroup[] = []
  for (const memory of memories) {
    const set = collectVotes([memory], identities)
    const keys = set.sortedKeys()
    if (keys.length === 0) continue
    const author = set.agents[set.agent(memory.author)] as string
    const verdicts = ['confirm', 'partial', 'dispute'] as const
    const votes = Array.from(keys.filter((key) => key % 4 !== ACKNOWLEDGE_CODE), (key) => ({
      witness: set.agents[Math.floor(key / 4 / 2 ** 24)] as string,
      verdict: verdicts[key % 4] as VoteGroup['votes'][number]['verdict']
    }))
    groups.push({ author, votes })
  }
  return groups
}

/**
 * The index in `set.memberDraws` of the attestation's draw when its fraction is below size /
 * population (witness-draw-v1 W5), else −1. Whether the node accepts the stated population is
 * judged once the graph's agents are known (reputation.ts). A proof that does not decode is no draw.
 */
function drawOf (set: VoteSet, a: StoredAttestation, witness: number, author: number, paths: DrawPaths): number {
  const draw = a.record.draw
  if (draw === undefined) return -1
  let fraction = a.drawFraction
  if (fraction === undefined) {
    try {
      fraction = drawFractionOfProof(decodeSignature(draw.proof), paths)
    } catch {
      return -1
    }
  }
  if (!isDrawn(fraction, draw.population)) return -1
  return set.memberDraws.push({ population: draw.population, ...(draw.shards === undefined ? {} : { shards: draw.shards }), witness, author }) - 1
}

function grown (array: Int32Array, index: number): Int32Array {
  const next = new Int32Array(Math.max(index + 1, array.length * 2))
  next.set(array)
  return next
}

function isNewer (a: StoredAttestation, b: StoredAttestation): boolean {
  const at = Date.parse(a.record.witnessed_at)
  const bt = Date.parse(b.record.witnessed_at)
  return at > bt || (at === bt && a.id > b.id)
}

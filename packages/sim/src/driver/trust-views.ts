import { type AttestationRecord, decodeSignature, drawFractionOfProof, type HttpOperations, type MemoryRecord, NODE_RECORD_FAST_PATHS, nodeCryptoVerifier, SCHEMA_TRUST_POLICY, scoreWithSetting, TRUST_POLICIES, type TrustLevel, type TrustPolicy, trustSettingFrom, type VerifiedRecord, verifyRecord, WITNESS_DRAW, type WitnessRequestRecord } from 'isnad/engine'

/*
 * What an observer node believes: every memory it holds with its evidence, exported through its HTTP
 * API (`isnad export`), each record verified again here, and scored under every trust policy the
 * registry holds (src/trust/policies.ts), so a policy added there is measured without a change here.
 * Reputation comes from the observer's trust roots over the attestations it holds (src/reputation),
 * as the node itself computes it.
 */

export interface TrustScore {
  score: number
  level: TrustLevel
}

/** Scores by policy name, then by memory id. */
export type TrustView = Map<string, Map<string, TrustScore>>

const QUERY_PAGE = 1000
/** Memories per export request: each brings its attestations and witness requests along. */
const EXPORT_CHUNK = 100

export function trustPolicies (): TrustPolicy[] {
  return Object.values(TRUST_POLICIES)
}

async function memoryIdsOf (ops: HttpOperations): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | undefined
  do {
    const page = await ops.call('query', { limit: QUERY_PAGE, ...(cursor === undefined ? {} : { cursor }) })
    ids.push(...page.items.map((item) => item.id))
    cursor = page.next
  } while (cursor !== undefined)
  return ids
}

function verifiedOrNull (input: unknown, now: number): VerifiedRecord | null {
  try {
    return verifyRecord(input, { verifier: nodeCryptoVerifier, now })
  } catch {
    return null // a record that does not verify is no evidence
  }
}

export interface ObservedTrust {
  view: TrustView
  /** Mean encoded size of the memories and attestations the observer holds, bytes. */
  meanRecordBytes: number
}

/**
 * What an observer believes, from the records it holds: reputation from its `roots` over the
 * attestations it holds (src/reputation, as the node computes it), then every memory scored under
 * every registered policy. Pure, and shared by both engines (the real nodes' export above and the
 * model engine's held records, src/sim/model), so a change to the trust code reaches both at once
 * and the engines agree whenever the same records reached the observer.
 */
export function scoreTrustView (
  memories: ReadonlyMap<string, MemoryRecord>,
  attestations: ReadonlyMap<string, ReadonlyArray<{ id: string, record: AttestationRecord }>>,
  roots: readonly string[],
  now: number,
  requests: ReadonlyMap<string, ReadonlyArray<{ id: string, record: WitnessRequestRecord }>> = new Map(),
  drawn?: SampledDraws
): TrustView {
  // The node's own scoring entry point (src/reputation scoring.ts), one policy at a time.
  // The drawn witnesses' attestations carry their draw into the reputation graph too: the debit
  // weighs a memory's voters against its drawn witnesses (docs/trust.md §3, "drawn agreement").
  const setting = trustSettingFrom([...attestations].flatMap(([memory, list]) => {
    const author = memories.get(memory)?.author.agent_id
    const sampled = drawn?.witnesses.get(memory)
    const counted = sampled === undefined || drawn === undefined ? list : list.map((a) => sampled.has(a.record.witness) ? drawnEvidence(a, drawn) : a)
    return author === undefined ? [] : [{ author, attestations: counted }]
  }), { policy: SCHEMA_TRUST_POLICY, roots, drawPaths: rememberingProofToHash(NODE_RECORD_FAST_PATHS) })
  // N̂ (witness-draw-v1 W6a): a node reads the populations its drawn attestations state, times their
  // shard count; the model's records carry no draw (it is sampled), so the stated figure is handed over.
  if (drawn !== undefined && drawn.witnesses.size > 0) setting.populationEstimate = Math.max(setting.populationEstimate ?? 0, drawn.population)
  const policies = trustPolicies()
  const view: TrustView = new Map(policies.map((p) => [p.name, new Map<string, TrustScore>()]))
  for (const [id, record] of memories) {
    const input = {
      memory: { id, record, signatureValid: true },
      attestations: (attestations.get(id) ?? []).map((a) => drawn?.witnesses.get(id)?.has(a.record.witness) === true ? drawnEvidence(a, drawn) : provedEvidence(a)),
      // Who asked whom: the observer's own private checks are independent of the author.
      requests: (requests.get(id) ?? []).map((r) => ({ ...r, signatureValid: true })),
      anchors: [],
      now
    }
    for (const policy of policies) {
      const result = scoreWithSetting(input, { ...setting, policy: policy.name })
      view.get(policy.name)?.set(id, { score: result.score, level: result.level })
    }
  }
  return view
}

/**
 * `paths` with each proof's hash (RFC 9381 §5.2) remembered for one scoring: N̂ reads the proof of
 * every drawn vote of the table, and the model's sampled draws all carry SAMPLED_PROOF, so without
 * this one scoring decoded the same point thousands of times. The hash is a function of the proof's
 * bytes alone: the figures are the same.
 */
function rememberingProofToHash (paths: typeof NODE_RECORD_FAST_PATHS): typeof NODE_RECORD_FAST_PATHS {
  const hashes = new Map<string, Uint8Array>()
  return {
    ...paths,
    vrfProofToHash: (proof) => {
      const key = Buffer.from(proof.buffer, proof.byteOffset, proof.byteLength).toString('base64')
      let hash = hashes.get(key)
      if (hash === undefined) {
        hash = paths.vrfProofToHash(proof)
        hashes.set(key, hash)
      }
      return hash
    }
  }
}

/**
 * Draws the model engine sampled instead of proving them (src/sim/model/draw-sampling.ts): the drawn
 * witnesses of each memory by id, and the population every drawn witness claims (the agents).
 */
export interface SampledDraws {
  witnesses: ReadonlyMap<string, ReadonlySet<string>>
  population: number
  /**
   * The shard count the draws were made under (witness-draw-v1 W12): each drawn witness states its
   * shard's population, population / shards, and the count, as a daemon's drawn attestation does
   * (`draw.shards`). Absent: 1, the network as one shard.
   */
  shards?: number
}

/** A proof the scoring never reads: the draw's fraction is handed over as verified (`drawFraction`). */
const SAMPLED_PROOF = 'A'.repeat(107)

/**
 * A drawn witness's attestation as the trust core takes a draw whose proof verified at ingest
 * (AttestationEvidence.drawFraction, record-v1 R19): the record with its draw, and a fraction below
 * size / population (the middle of the drawn range). The model's signed record carries no draw, a
 * sampled witness having no proof; the evidence says what a proof would have shown.
 */
function drawnEvidence (a: { id: string, record: AttestationRecord }, draws: SampledDraws): { id: string, record: AttestationRecord, signatureValid: true, drawFraction: number } {
  const shards = draws.shards ?? 1
  // A drawn witness states its shard's population and the count (record-v1 R19's draw.shards, absent under count 1).
  const population = Math.max(1, Math.floor(draws.population / shards))
  return {
    id: a.id,
    record: { ...a.record, draw: { population, proof: SAMPLED_PROOF, ...(shards > 1 ? { shards } : {}) } },
    signatureValid: true,
    drawFraction: Math.min(1, WITNESS_DRAW.size / population) / 2
  }
}

/**
 * An attestation verified here (its signature and, when it carries a draw, its proof: record-v1 R19),
 * with its draw's fraction read from the verified proof, as a node scores a stored draw.
 */
function provedEvidence (a: { id: string, record: AttestationRecord }): { id: string, record: AttestationRecord, signatureValid: true, drawFraction?: number } {
  const draw = a.record.draw
  if (draw === undefined) return { ...a, signatureValid: true }
  return { ...a, signatureValid: true, drawFraction: drawFractionOfProof(decodeSignature(draw.proof), NODE_RECORD_FAST_PATHS) }
}

/** The observer's trust in each memory it holds, under every registered policy, from its `roots`. */
/**
 * `draws: false` (a run with `--no-checks`): the observer counts no witness draw, as the model then
 * plays none. The daemons draw whatever the run (the draw is the protocol's), so an asked witness
 * that happens to be drawn attaches its draw; leaving it uncounted keeps the engines comparable.
 */
export async function observeTrust (ops: HttpOperations, roots: readonly string[], now: number, options: { draws?: boolean } = {}): Promise<ObservedTrust> {
  let bytes = 0
  let records = 0
  const memories = new Map<string, MemoryRecord>()
  const attestations = new Map<string, Array<{ id: string, record: AttestationRecord }>>()
  const requests = new Map<string, Array<{ id: string, record: WitnessRequestRecord }>>()
  const ids = await memoryIdsOf(ops)
  for (let at = 0; at < ids.length; at += EXPORT_CHUNK) {
    const bundle = await ops.call('exportBundle', { ids: ids.slice(at, at + EXPORT_CHUNK) })
    for (const signed of bundle.records) {
      const verified = verifiedOrNull(signed, now)
      if (verified === null) continue
      const { record } = verified.signed
      if (record.kind === 'memory' || record.kind === 'attestation') { bytes += verified.bytes.length; records++ }
      if (record.kind === 'memory') memories.set(verified.id, record)
      else if (record.kind === 'attestation') {
        const list = attestations.get(record.memory) ?? []
        const { draw, ...undrawn } = record
        const counted = options.draws === false && draw !== undefined ? undrawn : record
        if (!list.some((a) => a.id === verified.id)) list.push({ id: verified.id, record: counted })
        attestations.set(record.memory, list)
      } else if (record.kind === 'witness_request') {
        const list = requests.get(record.memory) ?? []
        if (!list.some((r) => r.id === verified.id)) list.push({ id: verified.id, record })
        requests.set(record.memory, list)
      }
    }
  }
  const view = scoreTrustView(memories, attestations, roots, now, requests)
  return { view, meanRecordBytes: records === 0 ? 0 : bytes / records }
}

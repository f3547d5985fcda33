import { IsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { nodeCryptoVerifier } from '../../fast-crypto/index.js'
import { canonicalJson, sha256Hex } from '../../ledger/index.js'
import { hashToHex, proveRecordInclusion, type RecordInclusion, type SignedCheckpoint } from '../../merkle/index.js'
import {
  createMemorySelector, createMemoryVerifier, createRecordMemoryStore, type MemoryTrace, type SelectionResult, type SelectRequest
} from '../../fdr/index.js'
import { evidenceOf, findSupersededBy, scoreEvidence } from '../trust/memory-evidence.js'
import type { LocalNode } from '../local-node.js'

/**
 * `select` on a node opened for writing (every selection's trace goes to its ledger, M-2): the FDR
 * Store over its record store and Merkle log, the Verifier with node:crypto, trust under the node's
 * policy and reputation, and the trace as a `memory.selected` event.
 */
/** Selections made by this process: part of each trace event's idempotency key. */
let selections = 0

export async function selectOnNode (node: LocalNode, request: SelectRequest, signatures: SignatureVerifier = nodeCryptoVerifier): Promise<SelectionResult> {
  const journal = node.journal // USAGE in read mode: a selection without its trace is not allowed
  const setting = await node.trust.setting()
  let checkpoint: Promise<SignedCheckpoint | null> | undefined
  const inclusionOf = async (id: string): Promise<RecordInclusion | undefined> => {
    // One checkpoint per selection, signed only if the log grew since the last one.
    const signed = await (checkpoint ??= journal.checkpoint())
    return signed === null ? undefined : await proveRecordInclusion(journal.merkle, id, signed)
  }
  const memories = createRecordMemoryStore({
    store: node.store,
    successorOf: async (memory) => await findSupersededBy(node.store, memory),
    ...(request.method === 'merkle-inclusion' ? { inclusionOf } : {})
  })
  const selector = createMemorySelector({
    records: node.store,
    memories,
    verifier: createMemoryVerifier({ signatures, method: request.method ?? 'isnad-ed25519' }),
    score: async (world) => {
      const memory = { id: world.id, signed: world.memory }
      const evidence = evidenceOf(memory, [...world.attestations], [...world.anchors])
      if (evidence.anchors.length > 0) await node.anchors.applyStates(evidence)
      return scoreEvidence(evidence, Date.parse(node.now()), setting)
    },
    clock: () => Date.parse(node.now()),
    atWorldId: async () => `isnad-log:${journal.merkle.size}:${hashToHex(await journal.merkle.root())}`,
    appendTrace: async (trace) => {
      const entry = traceEntryOf(trace)
      // Unique per selection: two identical selections in the same millisecond are two uses (M-2),
      // never one deduplicated event.
      const key = `memory.selected:${journal.events.runId}:${++selections}:${sha256Hex(canonicalJson(entry))}`
      await journal.recordSelection(trace.selector, key, entry)
    }
  })
  if (request.selector.length === 0) throw new IsnadError('USAGE', 'a selection names its selector')
  return await selector.select(request)
}

/**
 * The trace as the ledger keeps it: everything but the proofs themselves, each replaced by the
 * SHA-256 of its canonical JSON. A proof can be megabytes (every attestation of a memory) and is
 * rebuilt from the records the same ledger holds; the digest binds the trace to the exact proof the
 * selection carried.
 */
export function traceEntryOf (trace: MemoryTrace): Record<string, unknown> {
  return {
    ...trace,
    selected: trace.selected.map(({ evidence, ...item }) => evidence === undefined
      ? item
      : {
          ...item,
          evidence: {
            method: evidence.method,
            verifiedAt: evidence.verifiedAt,
            verifiedBy: evidence.verifiedBy,
            ...(evidence.proof === undefined ? {} : { proof_sha256: sha256Hex(canonicalJson(evidence.proof)) })
          }
        })
  }
}

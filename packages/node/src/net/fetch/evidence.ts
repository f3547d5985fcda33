import type { PeerId } from '@libp2p/interface'
import * as dagCbor from '@ipld/dag-cbor'
import { z } from 'zod'
import { IsnadError } from '../../errors/index.js'
import type { VerifiedRecord } from '../../record/index.js'
import { recordCid } from '../../schema/index.js'
import { MAX_RECORD_FRAME_BYTES } from '../wire/index.js'
import type { NetContext } from '../net-context.js'
import { peekRecordId } from '../record-gate.js'
import { FETCH_EVIDENCE_PROTOCOL, FETCH_TIMEOUT_MS, MAX_EVIDENCE_RECORDS } from './constants.js'
import { exchange, violation } from './exchange.js'

/*
 * A memory's evidence by the memory's id (fetch-v1 §9, `/isnad/fetch/1.2.0`): the attestations,
 * anchors and witness requests the peer holds that point at it. Nothing else maps a memory's CID to
 * the CIDs of the records naming it, so a node that found a memory by its CID (content-routing-v1
 * C7) asks its provider for them this way. Each record is verified as fetch-v1 F7 verifies any
 * fetched record, and must point at the memory asked.
 */

/** fetch-v1 E1. */
export const EvidenceRequestSchema = z.strictObject({ evidence: recordCid })

/** What an evidence fetch brought back (fetch-v1 E3–E4). */
export interface EvidenceFetchResult {
  /** Records received and verified, in the order the peer sent them. */
  records: VerifiedRecord[]
  /** Ids of records sent that this node stores already (not verified again). */
  known: string[]
}

/** The record kinds that are evidence of a memory: each points at it by its `memory` field. */
const EVIDENCE_KINDS = new Set(['attestation', 'anchor', 'witness_request'])

/**
 * The client side of fetch-v1 §9: asks `peer` for the evidence of `memoryId` it holds, at most
 * MAX_EVIDENCE_RECORDS records (E3: one more is a violation), each sent once (E3), each valid (F7)
 * and pointing at the memory asked (E4); a failure of any is a violation and nothing of the
 * response is used. The records are returned, not stored.
 */
export async function fetchEvidence (context: NetContext, peer: PeerId, memoryId: string, timeoutMs = FETCH_TIMEOUT_MS): Promise<EvidenceFetchResult> {
  const frames: Uint8Array[] = []
  const ids = new Set<string>()
  const request = dagCbor.encode({ evidence: memoryId })
  return await exchange(context, peer, { protocol: FETCH_EVIDENCE_PROTOCOL, request, maxFrame: MAX_RECORD_FRAME_BYTES, timeoutMs, what: 'evidence response' }, (frame) => {
    if (frames.length === MAX_EVIDENCE_RECORDS) throw violation(`the peer sent more than ${MAX_EVIDENCE_RECORDS} records of evidence`) // E3
    const id = peekRecordId(frame)
    if (id !== undefined) {
      if (ids.has(id)) throw new IsnadError('CID_MISMATCH', `the peer sent ${id} twice`, { details: { violation: true } }) // E3
      ids.add(id)
    }
    frames.push(frame)
  }, async () => await checkEvidence(context, memoryId, frames))
}

/** fetch-v1 E3–E4 and F7 on every frame. */
async function checkEvidence (context: NetContext, memoryId: string, frames: readonly Uint8Array[]): Promise<EvidenceFetchResult> {
  const records: VerifiedRecord[] = []
  const known: string[] = []
  const seen = new Set<string>()
  for (const result of await context.gate.checkMany(frames)) {
    if (result.status === 'invalid') throw result.error // F7
    if (result.status === 'ignored') continue // dated in the future: not the sender's fault (R7)
    if (seen.has(result.id)) throw new IsnadError('CID_MISMATCH', `the peer sent ${result.id} twice`, { details: { violation: true } })
    seen.add(result.id)
    if (result.status === 'known') { known.push(result.id); continue }
    const { record } = result.record.signed
    if (!EVIDENCE_KINDS.has(record.kind) || record.kind === 'memory' || record.memory !== memoryId) { // E4
      throw new IsnadError('CID_MISMATCH', `the peer sent ${record.kind} ${result.id}, which is not evidence of ${memoryId}`, { details: { violation: true } })
    }
    records.push(result.record)
  }
  return { records, known }
}

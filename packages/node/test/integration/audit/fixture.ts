import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signRecord, type MemoryRecord } from '../../../src/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { auditDataDir, type AuditReport } from '../../../src/ledger/audit/index.js'
import { openEventLedger, type EventInput, type EventLedger } from '../../../src/ledger/index.js'
import { computeRoot, createCheckpoint, hashLeaf, leafDataOfCid, signCheckpoint } from '../../../src/merkle/index.js'
import type { LedgerEvent } from '../../../src/schema/index.js'
import type { StoredRecord } from '../../../src/record-index/index.js'
import { createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest } from '../../fixtures/records.js'

/**
 * A real ledger for the audit suites: an event ledger written over several UTC days (an injected
 * clock), record events carrying real signed records in the node's convention (docs/architecture.md), and
 * signed checkpoints of the Merkle log built with src/merkle.
 */

/** 2026-02-10T00:00Z; events every 5 hours, so 4–5 per day. */
export const START = Date.parse('2026-02-10T00:00:00.000Z')
export const STEP_MS = 5 * 3600_000
export const SCOPE = 'default'
export const NODE_KEY = createAgent(9)

export async function createTempHome (label: string): Promise<{ root: string, dataDir: string, remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), `isnad-audit-${label}-`))
  return { root, dataDir: join(root, '.memory'), remove: async () => { await rm(root, { recursive: true, force: true }) } }
}

export async function copyDataDir (from: string, label: string): Promise<{ dataDir: string, remove: () => Promise<void> }> {
  const home = await createTempHome(label)
  await cp(from, home.dataDir, { recursive: true })
  return home
}

export function recordEvent (stored: StoredRecord, type?: EventInput['type']): EventInput {
  const { record } = stored.signed
  const kindType = record.kind === 'memory'
    ? (record.lineage.derived_from.length > 0 ? 'memory.distilled' : 'memory.captured')
    : record.kind === 'attestation' ? 'memory.attested' : record.kind === 'anchor' ? 'memory.anchored' : 'memory.witness_requested'
  const owner = 'author' in record ? record.author.agent_id : 'witness' in record ? record.witness : 'anchored_by' in record ? record.anchored_by : record.requester
  return {
    type: type ?? kindType,
    actor: owner,
    owner,
    idempotency_key: `${kindType}:${stored.id}`,
    payload: { id: stored.id, record: stored.signed as unknown as Record<string, unknown>, source: 'local' }
  }
}

/** A memory distilled from `from` (lineage.derived_from non-empty: a memory.distilled event). */
export function createDistilled (from: string): StoredRecord {
  const author = createAgent(1)
  const record: MemoryRecord = {
    kind: 'memory',
    version: 1,
    content: { type: 'insight', summary: `distilled from ${from.slice(-8)}`, body: '', tags: [] },
    author: { agent_id: author.did },
    created_at: '2026-02-05T16:00:00Z',
    context: { confidence: 0.8 },
    lineage: { derived_from: [from] }
  }
  return signRecord(record, author.secretKey)
}

/** The checkpointed event of the log over `recordIds` (in lc order), signed by NODE_KEY. */
export function checkpointEvent (recordIds: readonly string[], createdAt: string, root?: Uint8Array): EventInput {
  const record = createCheckpoint({ log: NODE_KEY.did, size: recordIds.length, root: root ?? computeRoot(recordIds.map((id) => hashLeaf(leafDataOfCid(id)))), createdAt })
  const { id, signed } = signCheckpoint(record, NODE_KEY.secretKey)
  return {
    type: 'memory.checkpointed', actor: NODE_KEY.did, owner: NODE_KEY.did, idempotency_key: `checkpointed:${id}`,
    payload: { id, checkpoint: signed as unknown as Record<string, unknown> }
  }
}

export interface BuiltLedger {
  instanceId: string
  events: LedgerEvent[]
  recordIds: string[]
  /** A time after the last event (ms), for audits. */
  now: number
}

/** The records of one memory's life: memory, attestation, witness request (bus), anchor, distillation. */
function recordsOf (n: number): StoredRecord[] {
  const author = createAgent(1)
  const memory = createMemory(author, { summary: `fixture memory ${n}` })
  return [
    memory,
    createAttestation(createAgent(2), memory.id, 'confirm', `2026-02-05T17:0${n % 10}:00Z`),
    createWitnessRequest(author, memory.id, [createAgent(3)]),
    createAnchor(author, memory.id, `https://example.org/evidence/${n}`),
    createDistilled(memory.id)
  ]
}

/**
 * Writes `memories` × 5 record events, one per clock step, plus a published (bus, non-record)
 * event and a checkpoint after every two memories and at the end.
 */
export async function writeLedger (dataDir: string, memories = 4): Promise<BuiltLedger> {
  let now = START - STEP_MS
  const ledger: EventLedger = await openEventLedger({ dataDir, scope: SCOPE, clock: () => (now += STEP_MS) })
  const events: LedgerEvent[] = []
  const recordIds: string[] = []
  const append = async (input: EventInput): Promise<void> => {
    const [result] = await ledger.append([input])
    if (result?.event !== undefined) events.push(result.event)
  }
  try {
    for (let n = 0; n < memories; n++) {
      for (const stored of recordsOf(n)) {
        await append(recordEvent(stored))
        recordIds.push(stored.id)
      }
      await append({ type: 'memory.published', actor: 'node', owner: 'node', idempotency_key: `published:${n}`, payload: { n } })
      if (n % 2 === 1 || n === memories - 1) await append(checkpointEvent(recordIds, new Date(now).toISOString()))
    }
    return { instanceId: ledger.instanceId, events, recordIds, now: now + STEP_MS }
  } finally {
    await ledger.close()
  }
}

export async function audit (dataDir: string, now: number, over: Partial<Parameters<typeof auditDataDir>[0]> = {}): Promise<AuditReport> {
  return await auditDataDir({ dataDir, scope: SCOPE, verifier: nodeCryptoVerifier, now: () => now, ...over })
}

/** `kind severity file` of each finding, for readable assertions. */
export function summary (report: AuditReport): string[] {
  return report.findings.map((f) => `${f.kind} ${f.severity} ${f.file}`)
}

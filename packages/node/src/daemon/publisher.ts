import { stat } from 'node:fs/promises'
import type { ApiEventHub } from '../operations/index.js'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import type { Network, PublishOutcome } from '../net/index.js'
import type { InboxEntry, LocalNode, RecordSource } from '../node/index.js'
import { announceItem } from './inbox-announcer.js'
import { encodeSignedRecord } from '../record/index.js'
import type { StoredRecord } from '../record-index/index.js'

export interface PublisherInit {
  node: LocalNode
  network: Network
  hub: ApiEventHub
  keystore: Keystore
  /** Requesters whose witness requests local agents confirm on their own (off when empty). */
  autoConfirmFrom: readonly string[]
  logger: Logger
  /**
   * Whether a stored request's inbox item is announced and answered (the witness budget,
   * witness-draw.ts); every one when absent.
   */
  admitRequest?: (requestId: string, item: InboxEntry) => Promise<boolean>
}

/**
 * What the daemon does when records are stored (gossip-v1 §2): gossips what this node made or imported
 * (received records are relayed by gossipsub itself), tells API subscribers of attestations from the
 * network and of new inbox items, and runs the auto-answer policy. Returns the unsubscribe function.
 */
export function startPublisher (init: PublisherInit): () => void {
  let queue = Promise.resolve()
  const context: PublisherContext = { ...init, hostedAgents: hostedAgentsOf(init.keystore) }
  const unsubscribe = init.node.pipeline.onStored((records, source) => {
    // One after another, in storage order: a memory is published before the attestation naming it.
    queue = queue.then(async () => { await handle(context, records, source) }).catch((err: unknown) => {
      init.logger.error('publishing failed', { error: err })
    })
  })
  return unsubscribe
}

export interface PublisherContext extends PublisherInit {
  /** The dids of the agents whose keys this node holds. */
  hostedAgents: () => Promise<string[]>
}

/**
 * The hosted agents' dids, listed again only when the keys directory changed: listing reads and
 * parses every key file, which for every stored witness request was ~15 ms on a witness's round
 * trip; a key is added or removed by a rename in that directory, which changes its mtime and ctime.
 */
export function hostedAgentsOf (keystore: Keystore): () => Promise<string[]> {
  let cached: { stamp: string, dids: string[] } | undefined
  return async () => {
    // Stamped before listing: a change during the listing leaves the older stamp, so the next call lists again.
    const stamp = await stat(keystore.directory, { bigint: true }).then(
      (s) => `${s.ino}:${s.mtimeNs}:${s.ctimeNs}`,
      (err: unknown) => { if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent'; throw err })
    if (cached?.stamp === stamp) return cached.dids
    const dids = (await keystore.list()).map((k) => k.did)
    cached = { stamp, dids }
    return dids
  }
}

async function handle (init: PublisherContext, records: readonly StoredRecord[], source: RecordSource): Promise<void> {
  const local = source === 'local' || source === 'import'
  if (!local) logArrivals(init.logger, records, source)
  const published: Array<{ id: string, topic: string, peers: number }> = []
  for (const stored of records) {
    const { id, signed: { record } } = stored
    if (record.kind === 'witness_request') {
      if (local) {
        const [memory] = await init.node.store.getBytesMany([record.memory])
        if (memory !== undefined) published.push({ id, ...outcomeOf(await init.network.publishWitnessRequest(bytesOf(stored), memory)) })
      }
      await announceInbox(init, id, record.witnesses ?? [])
      continue
    }
    if (local) published.push({ id, ...outcomeOf(await init.network.publishRecord(record.kind, bytesOf(stored))) })
    else if (record.kind === 'attestation') {
      // Local attestations are announced by the API's operations; these came from the network.
      init.hub.emit({ type: 'attestation', data: { id, memory: record.memory, witness: record.witness, verdict: record.attestation, witnessed_at: record.witnessed_at } })
    }
  }
  // What this node put on the network is part of its history (spec §5 memory.published).
  if (published.length > 0) await init.node.journal.recordPublished(published)
  for (const p of published) init.logger.debug('published', { id: p.id, topic: p.topic, peers: p.peers })
}

/**
 * Records from the network, as an operator wants them: each attestation and witness request that
 * arrives by gossip at info (they are what a witness or a requester waits for), other kinds at
 * debug; a sync or fetch page as one info line with its counts, its records at debug.
 */
function logArrivals (logger: Logger, records: readonly StoredRecord[], source: RecordSource): void {
  const perRecord = source === 'gossip'
  const counts: Record<string, number> = {}
  for (const { id, signed: { record } } of records) {
    counts[record.kind] = (counts[record.kind] ?? 0) + 1
    const level = perRecord && (record.kind === 'attestation' || record.kind === 'witness_request') ? 'info' : 'debug'
    if (!logger.isEnabled(level)) continue
    if (record.kind === 'attestation') logger[level]('attestation received', { source, id, memory: record.memory, witness: record.witness, verdict: record.attestation })
    else if (record.kind === 'witness_request') logger[level]('witness request received', { source, id, memory: record.memory, requester: record.requester, to: record.witnesses })
    else logger[level]('record received', { source, id, kind: record.kind })
  }
  if (!perRecord) logger.info('records received', { source, count: records.length, kinds: counts })
}

/**
 * The canonical bytes the pipeline verified and stored (StoredRecord.bytes), gossiped as they are:
 * a record is encoded once. A record handed on without them (none reach here from the pipeline)
 * is encoded, never sent in another form.
 */
function bytesOf (stored: StoredRecord): Uint8Array {
  return stored.bytes ?? encodeSignedRecord(stored.signed)
}

function outcomeOf (outcome: PublishOutcome): { topic: string, peers: number } {
  return { topic: outcome.topic, peers: outcome.recipients }
}

/** Tells subscribers of the request's inbox item, and answers it when the policy says so; none when the budget skips it. */
async function announceInbox (init: PublisherContext, requestId: string, addressed: readonly string[]): Promise<void> {
  const agents = await init.hostedAgents()
  // A request addressed only to agents hosted elsewhere has no inbox item here.
  if (addressed.length > 0 && !addressed.some((did) => agents.includes(did))) return
  // One request's item, not the whole inbox: this runs for every request the node stores.
  const item = await init.node.inboxItem(requestId, agents)
  if (item === null) return
  if (init.admitRequest !== undefined && !await init.admitRequest(requestId, item)) return
  await announceItem(init, item, agents)
}

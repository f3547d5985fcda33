import * as dagCbor from '@ipld/dag-cbor'
import { IsnadError, isIsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import { decodeKeyLog, MAX_KEY_LOG_BYTES, type Keyring } from '../../key-events/index.js'
import { SignedCheckpointSchema, checkpointCidOf, verifyCheckpoint } from '../../merkle/index.js'
import { cidString, type VerifiedRecord } from '../../record/index.js'
import { sameBytes } from '../../fast-crypto/index.js'
import { BoundedMap } from '../../collections/index.js'
import { parseShardTopic, shardOf, SHARDS, type ShardTopic } from '../../shard/index.js'
import { MAX_CHECKPOINT_AGE_MS, MAX_CHECKPOINT_BYTES, SEEN_CHECKPOINTS_SIZE, SHARDS_OF_DIDS_SIZE, TOPICS } from './constants.js'
import type { NetHost } from '../host.js'
import { peekRecordId, type GateResult, type RecordGate } from '../record-gate.js'
import { decodeWitnessEnvelope } from '../wire/index.js'
import { RECORD_OF_TOPIC_KIND } from './shard-routing.js'
import { parseTagTopic, validateTagMemory } from './tag-topics.js'
import type { GossipDecision } from './gossip-decision.js'

export type { GossipDecision } from './gossip-decision.js'

export interface GossipValidatorInit {
  gate: RecordGate
  host: NetHost
  verifier: SignatureVerifier
  clock: () => number
  /** The node's keyring (gossip-v1 §9), looked up per message: a node may reopen it. Absent: key logs are ignored. */
  keyring?: () => Keyring | undefined
  /** Told of every peer whose message was accepted (the network protects such peers from pruning, gossip-v1 §6). */
  onAccepted?: (from: string) => void
}

/**
 * Topic validators of gossip-v1 §3, independent of libp2p so they can be tested alone. They only
 * judge: they read the gate, the host's `has` and its memories' authors, and store or fetch nothing
 * (a key log, which the keyring merges before it counts, is the exception gossip-v1 R14 names).
 */
export class GossipValidator {
  private readonly seenCheckpoints = new BoundedMap<string, true>(SEEN_CHECKPOINTS_SIZE)
  /**
   * The shard of each DID judged recently, under the largest count: shardOf hashes the DID, and a
   * burst names the same few authors message after message (gossip-v1 R15 is checked on each).
   */
  private readonly shardsOfDids = new BoundedMap<string, number>(SHARDS_OF_DIDS_SIZE)

  constructor (private readonly init: GossipValidatorInit) {}

  async validate (topic: string, data: Uint8Array, from: string): Promise<GossipDecision> {
    const decision = await this.decide(topic, data)
    if (decision.result === 'accept') this.init.onAccepted?.(from)
    return decision
  }

  private async decide (topic: string, data: Uint8Array): Promise<GossipDecision> {
    if (topic === TOPICS.keyEvents) return await this.keyLog(data)
    const shard = parseShardTopic(topic) // gossip-v1 "Shards": count 1's topics are §2's
    if (shard === undefined) {
      const tag = parseTagTopic(topic) // gossip-v1 §11.9, R17
      return tag === undefined ? { result: 'reject', reason: `unknown topic ${topic}` } : await validateTagMemory(this.init.gate, data, tag)
    }
    if (shard.kind === 'witness-requests') return await this.witnessRequest(data, shard)
    if (shard.kind === 'checkpoints') return this.checkpoint(data, shard)
    const kind = RECORD_OF_TOPIC_KIND[shard.kind]
    if (kind === undefined) return { result: 'reject', reason: `unknown topic ${topic}` }
    const checked = await this.init.gate.check(data, kind) // gossip-v1 R1–R7
    if (checked.status !== 'verified' && checked.status !== 'cached') return decisionOf(checked)
    const { record } = checked.record.signed
    if (record.kind === 'memory' && !this.inShard(record.author.agent_id, shard)) {
      // gossip-v1 R15: the sender had the author in the record and could have checked.
      return { result: 'reject', reason: `a memory of ${record.author.agent_id} travels on its shard ${shardOf(record.author.agent_id, shard.count)} of ${shard.count}, not ${shard.shard}` }
    }
    if (record.kind === 'attestation' || record.kind === 'anchor') {
      // gossip-v1 R10: a memory this node holds nowhere does not make the attestation invalid; the
      // host obtains it after delivery (the verdict says which), never while validating.
      if (!await this.isKnown(record.memory)) return { result: 'accept', records: [checked.record], missingMemory: record.memory }
      // gossip-v1 R16: judged by the memory, which a relay may not have held: Ignore, not Reject.
      const author = await this.memoryAuthor(record.memory)
      if (author !== undefined && !this.inShard(author, shard)) {
        return { result: 'ignore', reason: `${record.kind} ${checked.id} is of a memory by ${author}, not of shard ${shard.shard} of ${shard.count}` }
      }
    }
    return { result: 'accept', records: [checked.record] }
  }

  /** gossip-v1 §4, R8–R9. */
  private async witnessRequest (data: Uint8Array, shard: ShardTopic): Promise<GossipDecision> {
    let envelope
    try {
      envelope = decodeWitnessEnvelope(data)
    } catch (err) {
      return rejectWith(err)
    }
    // R5 for the request before anything is verified: a stored request is a duplicate.
    const requestId = peekRecordId(envelope.request)
    if (requestId !== undefined && (await this.init.host.has([requestId]))[0] === true) {
      return { result: 'ignore', reason: `witness request ${requestId} is already stored` }
    }
    // The memory next: a valid request paired with a bad memory must not leave the request
    // looking verified to the gate (R8).
    const memory = await this.init.gate.check(envelope.memory, 'memory')
    if (memory.status === 'invalid' || memory.status === 'ignored') return decisionOf(memory)
    const request = await this.init.gate.check(envelope.request, 'witness_request')
    if (request.status !== 'verified' && request.status !== 'cached') return decisionOf(request)
    const { record } = request.record.signed
    if (record.kind !== 'witness_request' || memory.id !== record.memory) {
      return { result: 'reject', reason: `the envelope's memory is not ${record.kind === 'witness_request' ? record.memory : 'the requested one'}` }
    }
    if (record.expires_at !== undefined && Date.parse(record.expires_at) <= this.init.clock()) {
      return { result: 'ignore', reason: `witness request ${request.id} expired at ${record.expires_at}` } // R9
    }
    // gossip-v1 R15: the envelope names its author (in the memory) and its witnesses.
    const author = memory.status === 'known' ? await this.memoryAuthor(memory.id) : memoryAuthorOf(memory.record)
    const dids = [...(author === undefined ? [] : [author]), ...record.witnesses ?? []]
    if (author !== undefined && !dids.some((did) => this.inShard(did, shard))) {
      return { result: 'reject', reason: `witness request ${request.id} is neither of its author's shard nor of an addressed witness's (shard ${shard.shard} of ${shard.count})` }
    }
    // A memory verified earlier but not stored yet goes with the request; the host tolerates duplicates.
    const records = memory.status === 'known' ? [request.record] : [memory.record, request.record]
    return { result: 'accept', records }
  }

  /** gossip-v1 §5, R11–R12: one signed checkpoint per message. */
  private checkpoint (data: Uint8Array, shard: ShardTopic): GossipDecision {
    if (data.length > MAX_CHECKPOINT_BYTES) return { result: 'reject', reason: `checkpoint of ${data.length} bytes exceeds ${MAX_CHECKPOINT_BYTES}` }
    let value: unknown
    try {
      value = dagCbor.decode(data)
    } catch {
      return { result: 'reject', reason: 'checkpoint is not valid DAG-CBOR' }
    }
    const parsed = SignedCheckpointSchema.safeParse(value)
    if (!parsed.success) return { result: 'reject', reason: 'checkpoint does not match its schema' }
    if (!sameBytes(dagCbor.encode(parsed.data), data)) return { result: 'reject', reason: 'checkpoint is not in canonical form' }
    const id = cidString(checkpointCidOf(parsed.data.record))
    if (!this.inShard(parsed.data.record.log, shard)) {
      return { result: 'reject', reason: `checkpoint ${id} of ${parsed.data.record.log} is not of shard ${shard.shard} of ${shard.count}` } // R15
    }
    if (this.seenCheckpoints.has(id)) return { result: 'ignore', reason: `checkpoint ${id} already seen` }
    const now = this.init.clock()
    if (Date.parse(parsed.data.record.created_at) < now - MAX_CHECKPOINT_AGE_MS) {
      return { result: 'ignore', reason: `checkpoint ${id} is stale` }
    }
    try {
      const checkpoint = verifyCheckpoint(parsed.data, this.init.verifier, { now })
      this.seenCheckpoints.set(id, true)
      return { result: 'accept', records: [], checkpoint }
    } catch (err) {
      if (isIsnadError(err, 'TIMESTAMP_IN_FUTURE')) return { result: 'ignore', reason: err.message }
      return rejectWith(err)
    }
  }

  /**
   * gossip-v1 §9, R13–R14: a key log is decoded (size first), merged into the keyring, which checks
   * only the events it lacks and writes them before the message is accepted. A replay or an older
   * copy adds nothing and is ignored; so is a fork or a log dated ahead (not the relay's fault).
   */
  private async keyLog (data: Uint8Array): Promise<GossipDecision> {
    // R13: size first, whether or not this node keeps key logs: an oversized log is the sender's fault.
    if (data.length > MAX_KEY_LOG_BYTES) return { result: 'reject', reason: `key log of ${data.length} bytes exceeds ${MAX_KEY_LOG_BYTES}` }
    const keyring = this.init.keyring?.()
    if (keyring === undefined) return { result: 'ignore', reason: 'this node keeps no key logs' }
    try {
      const { added } = await keyring.accept(decodeKeyLog(data), 'gossip')
      if (added.length === 0) return { result: 'ignore', reason: 'the key log holds no new event' }
      return { result: 'accept', records: [] }
    } catch (err) {
      if (isIsnadError(err, 'TIMESTAMP_IN_FUTURE') || isIsnadError(err, 'KEY_EVENT_CONFLICT') || isIsnadError(err, 'RATE_LIMITED')) {
        return { result: 'ignore', reason: err.message }
      }
      return rejectWith(err)
    }
  }

  /**
   * Whether `did`'s records travel on the shard a topic names. Under count 1 every DID does (one
   * shard). Otherwise from the DID's shard under SHARDS.maxCount, remembered: counts are powers of
   * two, so shardOf(did, c) = shardOf(did, maxCount) mod c (shard/shard.ts).
   */
  private inShard (did: string, topic: ShardTopic): boolean {
    if (topic.count === 1) return true
    let finest = this.shardsOfDids.get(did)
    if (finest === undefined) {
      finest = shardOf(did, SHARDS.maxCount)
      this.shardsOfDids.set(did, finest)
    }
    return finest % topic.count === topic.shard
  }

  /** The author of a memory verified recently or stored; undefined when this node holds neither. */
  private async memoryAuthor (memoryId: string): Promise<string | undefined> {
    const recent = this.init.gate.recentRecord(memoryId)
    if (recent !== undefined) return memoryAuthorOf(recent)
    return await this.init.host.memoryAuthor?.(memoryId) ?? undefined
  }

  private async isKnown (memoryId: string): Promise<boolean> {
    if (this.init.gate.recentBytes(memoryId) !== undefined) return true
    const [known] = await this.init.host.has([memoryId])
    return known === true
  }
}

function memoryAuthorOf (record: VerifiedRecord): string | undefined {
  const { record: body } = record.signed
  return body.kind === 'memory' ? body.author.agent_id : undefined
}

function decisionOf (checked: Exclude<GateResult, { status: 'verified' | 'cached' }>): GossipDecision {
  switch (checked.status) {
    case 'known': return { result: 'ignore', reason: `record ${checked.id} is already stored` } // R5
    case 'ignored': return { result: 'ignore', reason: checked.error.message } // R7
    case 'invalid': return { result: 'reject', reason: `${checked.error.code}: ${checked.error.message}` }
  }
}

function rejectWith (err: unknown): GossipDecision {
  if (err instanceof IsnadError) return { result: 'reject', reason: `${err.code}: ${err.message}` }
  throw err
}

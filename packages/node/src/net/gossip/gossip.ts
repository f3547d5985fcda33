import { TopicValidatorResult, type GossipSub, type GossipsubMessage, type Message, type TopicValidatorFn } from '@libp2p/gossipsub'
import type { PeerId } from '@libp2p/interface'
import { IsnadError } from '../../errors/index.js'
import type { SignedCheckpoint } from '../../merkle/index.js'
import { decodeSignedRecord, encodeCanonical } from '../../record/index.js'
import type { RecordKind } from '../../schema/index.js'
import { shardTopicsOf, shardTopic, type HomeShards } from '../../shard/index.js'
import { MAX_GOSSIP_FRAME_BYTES, TOPICS } from './constants.js'
import type { NetContext } from '../net-context.js'
import type { GossipDecision, GossipValidator } from './gossip-validate.js'
import { isFrameViolation, watchGossipReadErrors } from './gossip-streams.js'
import { encodeWitnessEnvelope } from '../wire/index.js'
import { admitGossipTopics } from './topic-admission.js'
import { initialHome, memoryAuthorOfBytes, memoryTagsOfBytes, TOPIC_KIND_OF_RECORD, topicsOfDids, witnessRequestDids } from './shard-routing.js'
import { followedTagTopics, publishedTags, tagTopic } from './tag-topics.js'

export interface PublishOutcome {
  /** The topic it went on (the first, for a witness request sent on several shards). */
  topic: string
  /** Peers the message was sent to (0 when this node has no peer on the topic yet), summed over its topics. */
  recipients: number
}

/** Topics every node joins whatever its shards (gossip-v1 "Shards": key logs are network-wide). */
const NETWORK_WIDE_TOPICS: readonly string[] = [TOPICS.keyEvents]

type Accepted = Extract<GossipDecision, { result: 'accept' }>

/**
 * Joins the gossip-v1 topics: validators on every topic (§3), verified records handed to the host
 * once gossipsub delivers the message (with the memory the validator found missing, R10), and
 * publication of this node's own records.
 */
export class GossipRouter {
  /** Verdicts between the validator and delivery, keyed by gossipsub's message object. */
  private readonly accepted = new WeakMap<Message, Accepted>()
  private unwatch: () => void = () => {}
  /** The topics joined now: the network-wide ones and those of the home shards. */
  private readonly joined = new Set<string>()
  private current: HomeShards
  /** The topics of the tags the node follows (gossip-v1 §11.9). */
  private tagTopics: string[] = []
  /** Gives a joined topic its score parameters (topic-admission.ts). */
  private readonly scoreTopic: (topic: string) => void

  constructor (
    private readonly context: NetContext,
    private readonly pubsub: GossipSub,
    private readonly validator: GossipValidator,
    private readonly track: (task: Promise<unknown>) => void
  ) {
    this.current = initialHome(context.libp2p.peerId.toString())
    // Before libp2p starts: a peer's subscriptions to shard topics are kept from its first RPC.
    this.scoreTopic = admitGossipTopics(pubsub)
  }

  start (): void {
    this.join([...NETWORK_WIDE_TOPICS, ...shardTopicsOf(this.current)])
    this.pubsub.addEventListener('gossipsub:message', this.deliver)
    this.unwatch = watchGossipReadErrors(this.pubsub, this.streamFailed)
  }

  stop (): void {
    this.unwatch()
    this.pubsub.removeEventListener('gossipsub:message', this.deliver)
    for (const topic of this.joined) this.pubsub.topicValidators.delete(topic)
  }

  /** The node's shards now (gossip-v1 "Shards"). */
  get home (): HomeShards {
    return this.current
  }

  /** The topics this node subscribes to now. */
  get topics (): string[] {
    return [...this.joined]
  }

  /**
   * Moves the node to other home shards: joins the topics it lacks, then leaves those it no longer
   * needs (so no message of a shard kept in both is missed in between). Published from now on
   * under `home.count`.
   */
  setHome (home: HomeShards): void {
    this.current = home
    this.resubscribe()
  }

  /** Subscribes to the topics of these followed tags (gossip-v1 §11.9) and leaves those of tags no longer followed. */
  setTags (tags: readonly string[]): void {
    this.tagTopics = followedTagTopics(tags)
    this.resubscribe()
  }

  private resubscribe (): void {
    const wanted = new Set([...NETWORK_WIDE_TOPICS, ...shardTopicsOf(this.current), ...this.tagTopics])
    this.join([...wanted].filter((topic) => !this.joined.has(topic)))
    for (const topic of [...this.joined]) {
      if (wanted.has(topic)) continue
      this.pubsub.unsubscribe(topic)
      this.pubsub.topicValidators.delete(topic)
      this.joined.delete(topic)
    }
  }

  /**
   * Publishes a stored memory, attestation or anchor (its canonical signed bytes) on the topic of
   * its memory's author's shard under this node's count; a memory, under a count above 1, also on
   * the topics of its first tags (gossip-v1 §11.9).
   */
  async publishRecord (kind: RecordKind, bytes: Uint8Array): Promise<PublishOutcome> {
    if (kind === 'witness_request') {
      throw new IsnadError('USAGE', 'a witness request is published with its memory: use publishWitnessRequest')
    }
    const topicKind = TOPIC_KIND_OF_RECORD[kind]
    const { count } = this.current
    if (count === 1) return await this.publish(shardTopic(1, 0, topicKind), bytes)
    const author = kind === 'memory' ? memoryAuthorOfBytes(bytes) : await this.authorOfEvidence(bytes)
    if (author === undefined) return await this.publish(shardTopic(count, this.current.shards[0] ?? 0, topicKind), bytes)
    const tags = kind === 'memory' ? publishedTags(memoryTagsOfBytes(bytes)).map(tagTopic) : []
    return await this.publishAll([...topicsOfDids(count, topicKind, [author]), ...tags], bytes)
  }

  /** gossip-v1 §4: the request and the memory it names, in one envelope, on the author's and each addressed witness's shard. */
  async publishWitnessRequest (request: Uint8Array, memory: Uint8Array): Promise<PublishOutcome> {
    const { count } = this.current
    const topics = count === 1 ? [TOPICS.witnessRequests] : topicsOfDids(count, 'witness-requests', witnessRequestDids(request, memory))
    return await this.publishAll(topics, encodeWitnessEnvelope(request, memory))
  }

  /** gossip-v1 §5: on the shard of the log's signer. */
  async publishCheckpoint (checkpoint: SignedCheckpoint): Promise<PublishOutcome> {
    return await this.publishAll(topicsOfDids(this.current.count, 'checkpoints', [checkpoint.record.log]), encodeCanonical(checkpoint))
  }

  /** Publishes bytes as they are: for tests and tools that need to send what validators refuse. */
  async publish (topic: string, data: Uint8Array): Promise<PublishOutcome> {
    const { recipients } = await this.pubsub.publish(topic, data)
    return { topic, recipients: recipients.length }
  }

  private async publishAll (topics: readonly string[], data: Uint8Array): Promise<PublishOutcome> {
    let recipients = 0
    for (const topic of topics) recipients += (await this.publish(topic, data)).recipients
    return { topic: topics[0] ?? '', recipients }
  }

  /** The author of the memory an attestation's or anchor's bytes name, as this node stores it. */
  private async authorOfEvidence (bytes: Uint8Array): Promise<string | undefined> {
    const { record } = decodeSignedRecord(bytes)
    if (record.kind !== 'attestation' && record.kind !== 'anchor') return undefined
    return await this.context.host.memoryAuthor?.(record.memory) ?? undefined
  }

  private join (topics: readonly string[]): void {
    for (const topic of topics) {
      this.scoreTopic(topic)
      this.pubsub.topicValidators.set(topic, this.validate)
      this.pubsub.subscribe(topic)
      this.joined.add(topic)
    }
  }

  private readonly validate: TopicValidatorFn = async (peer, message) => {
    const decision = await this.validator.validate(message.topic, message.data, peer.toString())
    const { gossip } = this.context.stats
    switch (decision.result) {
      case 'accept':
        gossip.accepted++
        this.accepted.set(message, decision)
        return TopicValidatorResult.Accept
      case 'ignore':
        gossip.ignored++
        return TopicValidatorResult.Ignore
      case 'reject':
        gossip.rejected++
        this.context.log('rejected a message on %s from %p: %s', message.topic, peer, decision.reason)
        return TopicValidatorResult.Reject
    }
  }

  /**
   * gossip-v1 G3: gossipsub has dropped the peer after its inbound stream failed. A frame over
   * MAX_GOSSIP_FRAME_BYTES (or a garbled length) is a violation and is penalised; either way the
   * connection is closed, since gossipsub would never read from this peer again on it.
   */
  private readonly streamFailed = (peer: PeerId, err: unknown): void => {
    if (this.context.signal.aborted) return // this node is stopping: its own streams end with errors
    if (isFrameViolation(err)) {
      this.context.penalize(peer, `gossip frame refused (over ${MAX_GOSSIP_FRAME_BYTES} bytes or a bad length): ${String(err)}`)
    } else {
      this.context.log('gossip stream of %p failed: %s', peer, String(err))
    }
    this.track(this.context.libp2p.hangUp(peer).catch(() => {}))
  }

  /**
   * After Accept, gossipsub delivers the message (then forwards it): its records are handed over,
   * and the memory it points at but this node lacks is asked for, outside validation (gossip-v1 R10).
   */
  private readonly deliver = (event: CustomEvent<GossipsubMessage>): void => {
    const { msg, propagationSource } = event.detail
    const decision = this.accepted.get(msg)
    if (decision === undefined) return
    this.accepted.delete(msg)
    if (decision.records.length > 0) {
      this.track(this.context.accept(decision.records, 'gossip').catch((err: unknown) => {
        this.context.log.error('the host refused gossiped records: %s', String(err))
      }))
    }
    if (decision.missingMemory !== undefined) this.context.host.missingMemory?.(decision.missingMemory, propagationSource.toString())
    const { checkpoint } = decision
    const acceptCheckpoint = this.context.host.acceptCheckpoint
    if (checkpoint !== undefined && acceptCheckpoint !== undefined) {
      this.track(acceptCheckpoint.call(this.context.host, checkpoint, propagationSource.toString()).catch((err: unknown) => {
        this.context.log.error('the host refused a checkpoint: %s', String(err))
      }))
    }
  }
}

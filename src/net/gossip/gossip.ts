import { TopicValidatorResult, type GossipSub, type GossipsubMessage, type Message, type TopicValidatorFn } from '@libp2p/gossipsub'
import type { PeerId } from '@libp2p/interface'
import { IsnadError } from '../../errors/index.js'
import type { SignedCheckpoint } from '../../merkle/index.js'
import { encodeCanonical } from '../../record/index.js'
import type { RecordKind } from '../../schema/index.js'
import { ALL_TOPICS, MAX_GOSSIP_FRAME_BYTES, TOPICS, type Topic } from './constants.js'
import type { NetContext } from '../net-context.js'
import type { GossipDecision, GossipValidator } from './gossip-validate.js'
import { isFrameViolation, watchGossipReadErrors } from './gossip-streams.js'
import { encodeWitnessEnvelope } from '../wire/index.js'

export interface PublishOutcome {
  topic: Topic
  /** Peers the message was sent to (0 when this node has no peer on the topic yet). */
  recipients: number
}

const TOPIC_OF_KIND: Record<Exclude<RecordKind, 'witness_request'>, Topic> = {
  memory: TOPICS.memories,
  attestation: TOPICS.attestations,
  anchor: TOPICS.anchors
}

type Accepted = Extract<GossipDecision, { result: 'accept' }>

/**
 * Joins the gossip-v1 topics: validators on every topic (§3), verified records handed to the host
 * once gossipsub delivers the message, and publication of this node's own records.
 */
export class GossipRouter {
  /** Verdicts between the validator and delivery, keyed by gossipsub's message object. */
  private readonly accepted = new WeakMap<Message, Accepted>()
  private unwatch: () => void = () => {}

  constructor (
    private readonly context: NetContext,
    private readonly pubsub: GossipSub,
    private readonly validator: GossipValidator,
    private readonly track: (task: Promise<unknown>) => void
  ) {}

  start (): void {
    for (const topic of ALL_TOPICS) {
      this.pubsub.topicValidators.set(topic, this.validate)
      this.pubsub.subscribe(topic)
    }
    this.pubsub.addEventListener('gossipsub:message', this.deliver)
    this.unwatch = watchGossipReadErrors(this.pubsub, this.streamFailed)
  }

  stop (): void {
    this.unwatch()
    this.pubsub.removeEventListener('gossipsub:message', this.deliver)
    for (const topic of ALL_TOPICS) this.pubsub.topicValidators.delete(topic)
  }

  /** Publishes a stored memory, attestation or anchor (its canonical signed bytes) on its topic. */
  async publishRecord (kind: RecordKind, bytes: Uint8Array): Promise<PublishOutcome> {
    if (kind === 'witness_request') {
      throw new IsnadError('USAGE', 'a witness request is published with its memory: use publishWitnessRequest')
    }
    return await this.publish(TOPIC_OF_KIND[kind], bytes)
  }

  /** gossip-v1 §4: the request and the memory it names, in one envelope. */
  async publishWitnessRequest (request: Uint8Array, memory: Uint8Array): Promise<PublishOutcome> {
    return await this.publish(TOPICS.witnessRequests, encodeWitnessEnvelope(request, memory))
  }

  /** gossip-v1 §5. */
  async publishCheckpoint (checkpoint: SignedCheckpoint): Promise<PublishOutcome> {
    return await this.publish(TOPICS.checkpoints, encodeCanonical(checkpoint))
  }

  /** Publishes bytes as they are: for tests and tools that need to send what validators refuse. */
  async publish (topic: Topic, data: Uint8Array): Promise<PublishOutcome> {
    const { recipients } = await this.pubsub.publish(topic, data)
    return { topic, recipients: recipients.length }
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

  /** After Accept, gossipsub delivers the message (then forwards it): hand its records over. */
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
    const { checkpoint } = decision
    const acceptCheckpoint = this.context.host.acceptCheckpoint
    if (checkpoint !== undefined && acceptCheckpoint !== undefined) {
      this.track(acceptCheckpoint.call(this.context.host, checkpoint, propagationSource.toString()).catch((err: unknown) => {
        this.context.log.error('the host refused a checkpoint: %s', String(err))
      }))
    }
  }
}

import { z } from 'zod'
import { ATTESTATION_VERDICTS, CONTENT_TYPES, WitnessRequestRecordSchema, didKey, isoTimestamp, recordCid } from '../schema/index.js'

/*
 * Shapes of the network operations (witness flow, inbox, peers) and of the event stream.
 * The network node implements them; the API only carries them.
 */

/** `isnad witness request --json`: the signed request as published. */
export const WitnessRequestResultSchema = z.strictObject({
  id: recordCid,
  record: WitnessRequestRecordSchema,
  signature: z.string()
}).meta({ id: 'WitnessRequestResult' })

/**
 * A witness request waiting in a local agent's inbox (gossip-v1 §4), or a memory the witness draw chose
 * local agents for (`drawn`, protocols/witness-draw-v1.md): nobody asked, their answer carries the draw.
 */
export const InboxItemSchema = z.strictObject({
  /** The WitnessRequest's id; absent on a drawn item. */
  request: recordCid.optional(),
  memory: recordCid,
  /** Who asked; on a drawn item, the memory's author. */
  requester: didKey,
  /** The local agents the request is addressed to (or the draw chose); empty for an open request. */
  to: z.array(didKey),
  /** True when the witness draw chose `to` for this memory: answering it is the agent's share of the draw. */
  drawn: z.literal(true).optional(),
  created_at: isoTimestamp,
  expires_at: isoTimestamp.optional(),
  /** The memory's type and summary, when this node holds the memory, so an agent can triage. */
  type: z.enum(CONTENT_TYPES).optional(),
  summary: z.string().optional()
}).meta({ id: 'InboxItem' })

export const InboxSchema = z.strictObject({ items: z.array(InboxItemSchema) }).meta({ id: 'Inbox' })

export const PeerInfoSchema = z.strictObject({
  /** libp2p peer id. */
  id: z.string(),
  addresses: z.array(z.string())
}).meta({ id: 'PeerInfo' })

export const PeersSchema = z.strictObject({ peers: z.array(PeerInfoSchema) }).meta({ id: 'Peers' })

/** An attestation this node stored (made locally, imported, or received by gossip). */
export const AttestationNoticeSchema = z.strictObject({
  id: recordCid,
  memory: recordCid,
  witness: didKey,
  verdict: z.enum(ATTESTATION_VERDICTS),
  witnessed_at: isoTimestamp
}).meta({ id: 'AttestationNotice' })

export type WitnessRequestResult = z.infer<typeof WitnessRequestResultSchema>
export type InboxItem = z.infer<typeof InboxItemSchema>
export type PeerInfo = z.infer<typeof PeerInfoSchema>
export type AttestationNotice = z.infer<typeof AttestationNoticeSchema>

import { z } from 'zod'
import { boundedText, didKey, isoTimestamp } from './primitives.js'
import { MAX_TAG_BYTES } from './record-limits.js'

/*
 * A follow (protocols/gossip-v1.md §11.4): an author the node follows by did, or a
 * tag, and since when. Kept by the node (src/node/follows.ts), returned by the `follow` operation.
 */

/** A tag as record-v1 R3 allows one. */
export const followTag = boundedText(MAX_TAG_BYTES, { min: 1 }).regex(/^\S+$/u, 'must not contain whitespace')

export const FollowSchema = z.union([
  z.strictObject({ did: didKey.describe('a followed author'), since: isoTimestamp.describe('when the node began to follow it') }),
  z.strictObject({ tag: followTag.describe('a followed tag'), since: isoTimestamp.describe('when the node began to follow it') })
]).meta({ id: 'Follow' })
export type Follow = z.infer<typeof FollowSchema>

import type { Connection, PeerId, Stream } from '@libp2p/interface'
import { IsnadError } from '../errors/index.js'
import type { VerifiedRecord } from '../record/index.js'
import { FETCH_PROTOCOL, FETCH_TIMEOUT_MS, MAX_FETCH_IDS, MAX_FETCH_REQUEST_BYTES, MAX_RECORD_FRAME_BYTES } from './constants.js'
import { deadline, type NetContext } from './context.js'
import { FrameReader, isViolation, sendFrames, withDeadline } from './frames.js'
import { peekRecordId } from './record-gate.js'
import { FetchRequestSchema, decodeWire, encodeWire } from './wire.js'

/** What a fetch brought back (fetch-v1 §4). */
export interface FetchResult {
  /** Records received and verified now or recently, in the order the peer sent them. */
  records: VerifiedRecord[]
  /** Asked ids the host turned out to store already (the peer's copy was not verified). */
  known: string[]
  /** Asked ids the peer did not send. */
  missing: string[]
}

/** The server side of `/isnad/fetch/1.0.0` (fetch-v1 §3). */
export function createFetchHandler (context: NetContext, timeoutMs = FETCH_TIMEOUT_MS): (stream: Stream, connection: Connection) => Promise<void> {
  return async (stream, connection) => {
    const signal = deadline(context, timeoutMs)
    try {
      await withDeadline(stream, signal, async () => {
        const reader = new FrameReader(stream, MAX_FETCH_REQUEST_BYTES, signal)
        const frame = await reader.next(MAX_FETCH_REQUEST_BYTES)
        if (frame === null) throw new IsnadError('DECODE_FAILED', 'fetch stream closed before its request', { details: { violation: true } })
        const { ids } = decodeWire(frame, FetchRequestSchema, 'fetch request', MAX_FETCH_REQUEST_BYTES) // F1–F2
        const found: Uint8Array[] = []
        for (const id of new Set(ids)) {
          // A record this node verified but has not finished storing is served too (gossip-v1 R10).
          const bytes = await context.host.get(id) ?? context.gate.recentBytes(id)
          if (bytes !== null && bytes !== undefined) found.push(bytes)
        }
        await sendFrames(stream, found, signal) // F3
        await stream.close({ signal })
      })
    } catch (err) {
      stream.abort(err instanceof Error ? err : new Error(String(err)))
      if (isViolation(err)) context.penalize(connection.remotePeer, `fetch request: ${String(err)}`)
      context.log('fetch from %p failed: %s', connection.remotePeer, String(err))
    }
  }
}

/**
 * The client side (fetch-v1 §4): asks `peer` for up to MAX_FETCH_IDS records, verifies each one
 * received (its CID recomputed from its bytes and matched against the request: F6) and returns
 * them without storing them. A violation penalises the peer, resets the stream and rejects.
 */
export async function fetchRecords (context: NetContext, peer: PeerId, ids: readonly string[], timeoutMs = FETCH_TIMEOUT_MS): Promise<FetchResult> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return { records: [], known: [], missing: [] }
  if (wanted.length > MAX_FETCH_IDS) throw new IsnadError('USAGE', `a fetch asks for at most ${MAX_FETCH_IDS} records, not ${wanted.length}`)
  const signal = deadline(context, timeoutMs)
  const stream = await context.libp2p.dialProtocol(peer, FETCH_PROTOCOL, { signal })
  try {
    const reader = new FrameReader(stream, MAX_RECORD_FRAME_BYTES, signal)
    const frames = await withDeadline(stream, signal, async () => {
      await sendFrames(stream, [encodeWire({ ids: wanted })], signal)
      await stream.close({ signal }) // the request is complete: half-close (F3)
      const received: Uint8Array[] = []
      for (let frame = await reader.next(MAX_RECORD_FRAME_BYTES); frame !== null; frame = await reader.next(MAX_RECORD_FRAME_BYTES)) {
        if (received.length === wanted.length) throw violation('the peer sent more records than were asked') // F5
        received.push(frame)
      }
      return received
    })
    return await checkFetched(context, wanted, frames)
  } catch (err) {
    stream.abort(err instanceof Error ? err : new Error(String(err)))
    if (isViolation(err)) context.penalize(peer, `fetch response: ${String(err)}`)
    throw err
  }
}

/** fetch-v1 F5–F7: every frame one asked-for record, each once, each valid. */
async function checkFetched (context: NetContext, wanted: readonly string[], frames: readonly Uint8Array[]): Promise<FetchResult> {
  const asked = new Set(wanted)
  for (const frame of frames) {
    const id = peekRecordId(frame)
    if (id !== undefined && !asked.delete(id)) { // F6
      throw new IsnadError('CID_MISMATCH', `the peer sent ${id}, which was not asked or came twice`, { details: { violation: true } })
    }
  }
  const results = await context.gate.checkMany(frames)
  const records: VerifiedRecord[] = []
  const known: string[] = []
  const seen = new Set<string>()
  for (const result of results) {
    if (result.status === 'invalid') throw result.error // F7
    if (result.status === 'ignored') continue // dated in the future: not the sender's fault (R7)
    seen.add(result.id)
    if (result.status === 'known') known.push(result.id)
    else records.push(result.record)
  }
  // F6 once more on the ids verification computed (peekRecordId skips bytes it cannot lay out).
  const wantedSet = new Set(wanted)
  for (const record of records) {
    if (!wantedSet.has(record.id)) throw new IsnadError('CID_MISMATCH', `the peer sent ${record.id}, which was not asked`)
  }
  return { records, known, missing: wanted.filter((id) => !seen.has(id)) }
}

function violation (message: string): IsnadError {
  return new IsnadError('DECODE_FAILED', message, { details: { violation: true } })
}

import { createRoute } from '@hono/zod-openapi'
import { streamSSE, type SSEStreamingApi } from 'hono/streaming'
import { z } from 'zod'
import { MAX_PENDING_EVENTS, SSE_HEARTBEAT_MS } from '../constants.js'
import type { EventLog, SequencedEvent } from '../../operations/index.js'
import { AttestationNoticeSchema, InboxItemSchema } from '../../operations/index.js'
import { BASE_ERRORS, type ApiApp } from './common.js'

const events = createRoute({
  method: 'get',
  path: '/v1/events',
  summary: 'events: a server-sent event stream of new inbox items and attestations',
  description: [
    'text/event-stream. Each message is `event: inbox` (data: an InboxItem) or `event: attestation`',
    '(data: an AttestationNotice), with an `id:`; reconnect with `Last-Event-ID` to receive the',
    'events missed meanwhile, as long as the server still holds them. Comment lines are heartbeats.'
  ].join(' '),
  responses: {
    200: {
      description: 'the event stream',
      content: { 'text/event-stream': { schema: z.union([InboxItemSchema, AttestationNoticeSchema]) } }
    },
    ...BASE_ERRORS
  }
})

/** Ends every open stream when the server closes, since an open stream would hold `close` forever. */
export type StreamClosers = Set<() => void>

export function registerEventRoutes (app: ApiApp, log: EventLog, closers: StreamClosers): void {
  app.openapi(events, (c) => streamSSE(c, async (stream) => { await pump(stream, log, c.req.header('last-event-id'), closers) }))
}

/**
 * Writes missed events, then new ones as they come, until the client leaves or the server closes.
 * Events are queued, not written from the listener, so a slow client never slows the node; one that
 * falls MAX_PENDING_EVENTS behind is dropped and may resume with Last-Event-ID.
 */
async function pump (stream: SSEStreamingApi, log: EventLog, lastEventId: string | undefined, closers: StreamClosers): Promise<void> {
  const queue: SequencedEvent[] = []
  let overflow = false
  let done = false
  let wake: () => void = () => {}
  const { missed, stop } = log.follow(lastEventId, (event) => {
    if (queue.length >= MAX_PENDING_EVENTS) overflow = true
    else queue.push(event)
    wake()
  })
  const finish = (): void => { done = true; wake() }
  closers.add(finish)
  stream.onAbort(finish)
  queue.push(...missed)
  try {
    // A first comment, so the client sees the stream open (and knows it is subscribed) at once.
    await stream.write(': isnad events\n\n')
    while (!done && !overflow) {
      const next = queue.shift()
      if (next !== undefined) {
        await stream.writeSSE({ event: next.event.type, id: next.id, data: JSON.stringify(next.event.data) })
        continue
      }
      const woke = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => { resolve(false) }, SSE_HEARTBEAT_MS)
        wake = () => { clearTimeout(timer); resolve(true) }
      })
      wake = () => {}
      if (!woke && !done) await stream.write(': ping\n\n')
    }
  } finally {
    stop()
    closers.delete(finish)
  }
}

import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { AttestationNoticeSchema, InboxItemSchema } from 'isnad/engine'

/*
 * A node's event stream (GET /v1/events, server-sent events) as the simulation driver follows it:
 * `inbox` when a witness request reaches a node's agent, `attestation` when a node stores one. The
 * arrival time is taken when the bytes arrive (performance.now of the driver), so every latency is
 * read on one clock. Events are validated with the API's own schemas (a trust boundary).
 */

export type SimEvent =
  | { type: 'inbox', data: z.infer<typeof InboxItemSchema> }
  | { type: 'attestation', data: z.infer<typeof AttestationNoticeSchema> }

export interface EventStream {
  close: () => void
}

const SCHEMAS = { inbox: InboxItemSchema, attestation: AttestationNoticeSchema } as const

function parseJson (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Opens the stream; resolves once the server's opening comment says the subscription is live. */
export async function openEventStream (url: string, token: string, onEvent: (event: SimEvent, at: number) => void): Promise<EventStream> {
  const controller = new AbortController()
  const response = await fetch(`${url}/v1/events`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal
  })
  if (!response.ok || response.body === null) throw new Error(`event stream of ${url} refused: HTTP ${response.status}`)
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let live: () => void = () => {}
  const opened = new Promise<void>((resolve) => { live = resolve })
  const drain = (at: number): void => {
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      let type = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim()
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
      }
      if ((type === 'inbox' || type === 'attestation') && data.length > 0) {
        const parsed = SCHEMAS[type].safeParse(parseJson(data.join('\n')))
        if (parsed.success) onEvent({ type, data: parsed.data } as SimEvent, at)
      }
    }
  }
  void (async () => {
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) return
      const at = performance.now()
      buffer += decoder.decode(chunk.value, { stream: true })
      live()
      drain(at)
    }
  })().catch(() => {}) // aborted by close(), or the node stopped
  await opened
  return { close: () => { controller.abort() } }
}

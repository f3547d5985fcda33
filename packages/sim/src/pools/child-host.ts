import { parentPort } from 'node:worker_threads'
import type { LinkConditions } from 'isnad/engine'
import { LocalPool } from './local-pool.js'
import type { NodePool } from './pool.js'
import type { PortRange } from './port-range.js'

/*
 * The body of one child process of `isnad sim run --processes N` or worker thread of `--threads N`
 * (child-pool.ts starts it): a LocalPool of the nodes given to it, driven over the IPC channel or the
 * worker's port with { id, method, args } calls answered by { id, result } or { id, error }. Nodes
 * are numbered locally from 0 in each child.
 */

type Call = { id: number, method: keyof NodePool | 'meshes' | 'start', args: unknown[] }

const CALLABLE = new Set(['info', 'dial', 'hangUp', 'connectedPeers', 'stop', 'restart', 'syncAll', 'counters', 'meshes', 'close'])

/** The way back to the parent: the IPC channel of a child process, or the port of a worker thread. */
interface ParentLink {
  send: (message: unknown, failed: () => void) => void
  onMessage: (listener: (message: Call) => void) => void
  /** The parent went away (or the link broke). */
  onGone: (listener: (code: number) => void) => void
  close: () => void
}

function parentLink (): ParentLink {
  const port = parentPort
  if (port !== null) {
    return {
      send: (message) => { port.postMessage(message) },
      onMessage: (listener) => { port.on('message', listener) },
      onGone: (listener) => { port.on('close', () => { listener(0) }) },
      close: () => { port.close() }
    }
  }
  return {
    send: (message, failed) => { if (process.connected) process.send?.(message, (err: Error | null) => { if (err !== null) failed() }) },
    onMessage: (listener) => { process.on('message', listener) },
    onGone: (listener) => {
      process.on('error', () => { listener(1) })
      process.on('disconnect', () => { listener(0) })
    },
    close: () => { process.disconnect() }
  }
}

export function serveChildPool (): void {
  const parent = parentLink()
  let pool: LocalPool | undefined
  // The parent may be gone (it crashed or was stopped): nothing is left to tell, so the nodes stop
  // and their temporary homes go. (In a worker thread, process.exit ends the thread.)
  const shutDown = (code: number): void => { void (pool?.close() ?? Promise.resolve()).finally(() => process.exit(code)) }
  const reply = (message: unknown): void => { parent.send(message, () => { shutDown(1) }) }
  parent.onMessage((message: Call) => {
    void (async () => {
      try {
        if (message.method === 'start') {
          const [count, linkConditions, privateCheckers, portRange] = message.args as [number, LinkConditions | null, number[] | null, PortRange | null]
          pool = await LocalPool.start({ count, ...(linkConditions === null ? {} : { linkConditions }), ...(privateCheckers === null ? {} : { privateCheckers }), ...(portRange === null ? {} : { portRange }) })
          reply({ id: message.id, result: Array.from({ length: pool.size }, (_, i) => pool?.info(i)) })
          return
        }
        if (pool === undefined || !CALLABLE.has(message.method)) throw new Error(`cannot call ${String(message.method)}`)
        const method = pool[message.method] as (...args: unknown[]) => unknown
        const result = await method.apply(pool, message.args)
        reply({ id: message.id, result: result ?? null })
        if (message.method === 'close') parent.close()
      } catch (err) {
        reply({ id: message.id, error: err instanceof Error ? err.message : `${String(err)} (${(err as { type?: string })?.type ?? typeof err})` })
      }
    })()
  })
  parent.onGone(shutDown)
}

serveChildPool()

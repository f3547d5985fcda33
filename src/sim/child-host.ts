import { LocalPool } from './local-pool.js'
import type { NodePool } from './pool.js'

/*
 * The body of one child process of `isnad sim run --processes N` (child-pool.ts forks it): a
 * LocalPool of the nodes given to it, driven over the IPC channel with { id, method, args } calls
 * answered by { id, result } or { id, error }. Nodes are numbered locally from 0 in each child.
 */

type Call = { id: number, method: keyof NodePool | 'start', args: unknown[] }

const CALLABLE = new Set(['info', 'dial', 'hangUp', 'connectedPeers', 'stop', 'restart', 'syncAll', 'counters', 'close'])

export function serveChildPool (): void {
  let pool: LocalPool | undefined
  // The parent may be gone (it crashed or was stopped): nothing is left to tell, so the nodes stop
  // and their temporary homes go.
  const shutDown = (code: number): void => { void (pool?.close() ?? Promise.resolve()).finally(() => process.exit(code)) }
  const reply = (message: unknown): void => {
    if (process.connected) process.send?.(message, (err: Error | null) => { if (err !== null) shutDown(1) })
  }
  process.on('error', () => { shutDown(1) })
  process.on('message', (message: Call) => {
    void (async () => {
      try {
        if (message.method === 'start') {
          const [count] = message.args as [number]
          pool = await LocalPool.start({ count })
          reply({ id: message.id, result: Array.from({ length: pool.size }, (_, i) => pool?.info(i)) })
          return
        }
        if (pool === undefined || !CALLABLE.has(message.method)) throw new Error(`cannot call ${String(message.method)}`)
        const method = pool[message.method] as (...args: unknown[]) => unknown
        const result = await method.apply(pool, message.args)
        reply({ id: message.id, result: result ?? null })
        if (message.method === 'close') process.disconnect()
      } catch (err) {
        reply({ id: message.id, error: err instanceof Error ? err.message : `${String(err)} (${(err as { type?: string })?.type ?? typeof err})` })
      }
    })()
  })
  process.on('disconnect', () => { shutDown(0) })
}

serveChildPool()

import { readFileSync } from 'node:fs'
import type { SignedKeyEvent } from '../../../src/key-events/index.js'

/** protocols/vectors/key-events/key-events.json (record-v1 §13). */
export const KEY_VECTORS = JSON.parse(readFileSync(new URL('../../../protocols/vectors/key-events/key-events.json', import.meta.url), 'utf8')) as {
  now: string
  keys: Array<{ name: string, seed: string, did: string }>
  logs: Array<{ identity: string, ids: string[], events: SignedKeyEvent[] }>
  status: Array<{ key: string, key_name: string, at: string, expect: string, note: string }>
  invalid: Array<{ id: string, rule: string, known: number, events: unknown[], expect: string }>
  conflict: { known: SignedKeyEvent[], received: SignedKeyEvent[], expect: string }
}

export const KEY_NOW = Date.parse(KEY_VECTORS.now)

export function keySigner (name: string): { did: string, secretKey: Uint8Array } {
  const key = KEY_VECTORS.keys.find((k) => k.name === name)
  if (key === undefined) throw new Error(`no key ${name}`)
  return { did: key.did, secretKey: Uint8Array.from(Buffer.from(key.seed, 'hex')) }
}

/** Identity B's log: an inception and a plain rotation (b0 → b1, committing b2). */
export function logB (): SignedKeyEvent[] {
  return structuredClone((KEY_VECTORS.logs[1] as { events: SignedKeyEvent[] }).events)
}

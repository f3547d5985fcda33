import { readFileSync } from 'node:fs'
import type { SignedRecord } from '../../../src/schema/index.js'

/** The valid vectors of protocols/vectors/records/valid.json: real signed records from fixed seeds. */
export interface ValidVector {
  id: string
  signer: string
  signed: SignedRecord
  cid: string
}

export const VALID = JSON.parse(readFileSync(new URL('../../../protocols/vectors/records/valid.json', import.meta.url), 'utf8')) as {
  now: string
  keys: Array<{ name: string, seed: string, did: string }>
  vectors: ValidVector[]
}

export const NOW = Date.parse(VALID.now)

export function validVector (id: string): ValidVector {
  const vector = VALID.vectors.find((v) => v.id === id)
  if (vector === undefined) throw new Error(`no valid vector ${id}`)
  return structuredClone(vector)
}

export function seedOf (name: string): Uint8Array {
  const key = VALID.keys.find((k) => k.name === name)
  if (key === undefined) throw new Error(`no key ${name}`)
  return Uint8Array.from(Buffer.from(key.seed, 'hex'))
}

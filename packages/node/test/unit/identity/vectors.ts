import { readFileSync } from 'node:fs'

/** Reads the normative vectors in protocols/vectors/ (STYLE: specs and vectors live in protocols/). */
const VECTORS = new URL('../../../protocols/vectors/', import.meta.url)

export function readVectorFile<T> (path: string): T {
  return JSON.parse(readFileSync(new URL(path, VECTORS), 'utf8')) as T
}

export const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'))
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

export interface Ed25519Vector {
  id: string
  comment: string
  public_key: string
  message: string
  signature: string
  expected: 'valid' | 'invalid' | 'throws'
  error_code?: string
  /** rfc8032.json only */
  secret_key?: string
  /** edge-cases.json only: what lax verifiers say (see the file's `fields`) */
  group?: string
  zip215?: boolean
  cofactorless?: boolean
}

export interface Ed25519VectorFile {
  description: string
  vectors: Ed25519Vector[]
}

export interface DidKeyVectorFile {
  valid: Array<{ id: string, did: string, public_key: string, seed?: string, public_key_base58?: string }>
  invalid: Array<{ id: string, did: string, error_code: string, comment: string }>
}

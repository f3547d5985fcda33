import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isIsnadError, type ErrorCode } from '../../../src/errors/index.js'

/** A fixed 32-byte seed per test case; distinct `n` give distinct keys. */
export function seedOf (n: number): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, i) => (n * 31 + i * 7) & 0xff)
}

export function keyFilePath (directory: string, did: string): string {
  return join(directory, did.slice('did:key:'.length) + '.json')
}

export async function readJson (file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
}

export async function writeJson (file: string, value: unknown): Promise<void> {
  await writeFile(file, JSON.stringify(value), { mode: 0o600 })
}

/** The IsnadError code a promise rejects with; anything else fails the test with the real error. */
export async function codeOf (promise: Promise<unknown>): Promise<ErrorCode | 'resolved'> {
  try {
    await promise
    return 'resolved'
  } catch (err) {
    if (isIsnadError(err)) return err.code
    throw err
  }
}

/** The same base64 string with one bit of byte `index` flipped (still valid base64 of the same length). */
export function flipBit (base64: string, index = 0): string {
  const bytes = Buffer.from(base64, 'base64')
  bytes[index] = (bytes[index] ?? 0) ^ 0x01
  return bytes.toString('base64')
}

import { readFile, stat } from 'node:fs/promises'
import { InvalidArgumentError } from 'commander'
import { IsnadError } from '../errors/index.js'
import { isShardCount, SHARDS } from '../shard/index.js'
import type { Bundle } from '../schema/index.js'
import { parseBundleEnvelope, parseJson } from '../memory-view/index.js'

/** Repeatable option collector: `--tag a --tag b` → ['a', 'b']. */
export function collect (value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

export function parsePositiveInt (value: string): number {
  const number = Number(value)
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer')
  return number
}

/** `--shard-count`: a power of two from 1 to SHARDS.maxCount (protocols/gossip-v1.md "Shards"). */
export function parseShardCount (value: string): number {
  const number = Number(value)
  if (!isShardCount(number)) throw new InvalidArgumentError(`must be a power of two from 1 to ${SHARDS.maxCount}`)
  return number
}

export function choice<T extends string> (allowed: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`must be one of: ${allowed.join(', ')}`)
    }
    return value as T
  }
}

/**
 * Reads a file the user named, or stdin for `-`, as UTF-8, refusing more than `maxBytes` before
 * reading it all (RECORD_TOO_LARGE), so a huge file cannot exhaust memory.
 */
export async function readInput (path: string, maxBytes: number): Promise<string> {
  const tooLarge = (): IsnadError => new IsnadError('RECORD_TOO_LARGE', `${path === '-' ? 'stdin' : path} is larger than ${maxBytes} bytes`)
  if (path === '-') {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length
      if (size > maxBytes) throw tooLarge()
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks).toString('utf8')
  }
  try {
    if ((await stat(path)).size > maxBytes) throw tooLarge()
    return await readFile(path, 'utf8')
  } catch (cause) {
    if (cause instanceof IsnadError) throw cause
    throw new IsnadError('IO_ERROR', `cannot read ${path}: ${(cause as NodeJS.ErrnoException).code ?? 'error'}`, { cause })
  }
}

/**
 * A bundle file's envelope (record-v1 §6): JSON_INVALID, then BUNDLE_INVALID (FIELD_TOO_LARGE past
 * MAX_BUNDLE_RECORDS records), as verify and the API say. Its records stay unchecked here: the operations verify each one (ingest locally, the
 * request schema and then ingest in a daemon), and one bad record refuses the whole bundle.
 */
export function parseBundle (text: string): Bundle {
  return parseBundleEnvelope(parseJson(text, 'bundle')) as Bundle
}

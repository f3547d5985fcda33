import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Transform, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import { ensureDirectory, ioError, syncDirectory, withFile } from '../../fs/index.js'
import { LEDGER_FILE_MODE } from '../index.js'
import { ARCHIVE_GZIP_HEADER, GZIP_OS_OFFSET } from './constants.js'

/**
 * The `.jsonl.gz` archives of spec §4: written to a temporary file, fsynced, renamed into place and
 * the directory fsynced, so an archive path only ever names a complete archive; read back to prove
 * it holds the shard's exact bytes before the shard goes.
 */

export interface Digest {
  bytes: number
  /** Hex SHA-256 of the (decompressed) content. */
  sha256: string
}

function hashingTap (digest: { hash: ReturnType<typeof createHash>, bytes: number }): Transform {
  return new Transform({
    transform (chunk: Buffer, _encoding, callback) {
      digest.hash.update(chunk)
      digest.bytes += chunk.length
      callback(null, chunk)
    }
  })
}

/** Compresses `source` to `target` durably; returns the digest of what was read from `source`. */
export async function writeArchive (source: string, target: string): Promise<Digest & { compressed: number }> {
  await ensureDirectory(dirname(target))
  const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`
  const digest = { hash: createHash('sha256'), bytes: 0 }
  try {
    await pipeline(createReadStream(source), hashingTap(digest), createGzip(), createWriteStream(temp, { flags: 'wx', mode: LEDGER_FILE_MODE }))
    let handle: FileHandle | undefined
    try {
      handle = await open(temp, 'r+')
      // RFC 1952 §2.3.1: OS 255 "unknown", so every platform writes the same header (ARCHIVE_GZIP_HEADER)
      await handle.write(Uint8Array.of(0xff), 0, 1, GZIP_OS_OFFSET)
      await handle.sync()
    } finally {
      await handle?.close()
    }
    await rename(temp, target)
  } catch (err) {
    await rm(temp, { force: true })
    throw ioError('archive', source, err)
  }
  await syncDirectory(dirname(target))
  return { bytes: digest.bytes, sha256: digest.hash.digest('hex'), compressed: (await stat(target)).size }
}

/** The digest of an archive's decompressed content; IO_ERROR when it does not decompress. */
export async function digestArchive (path: string): Promise<Digest> {
  const digest = { hash: createHash('sha256'), bytes: 0 }
  const sink = new Writable({ write: (_chunk: Buffer, _encoding, callback) => { callback() } })
  try {
    await pipeline(createReadStream(path), createGunzip(), hashingTap(digest), sink)
  } catch (err) {
    throw ioError('read back the archive', path, err)
  }
  return { bytes: digest.bytes, sha256: digest.hash.digest('hex') }
}

/** The digest of a plain file. */
export async function digestFile (path: string): Promise<Digest> {
  const digest = { hash: createHash('sha256'), bytes: 0 }
  const sink = new Writable({ write: (_chunk: Buffer, _encoding, callback) => { callback() } })
  try {
    await pipeline(createReadStream(path), hashingTap(digest), sink)
  } catch (err) {
    throw ioError('read', path, err)
  }
  return { bytes: digest.bytes, sha256: digest.hash.digest('hex') }
}

/** True when the file starts with the exact header isnad writes (constants.ts ARCHIVE_GZIP_HEADER). */
export async function hasArchiveHeader (path: string): Promise<boolean> {
  // Missing: archived and gone meanwhile, nothing to judge.
  return await withFile(path, { flags: 'r', action: 'read', ifMissing: true }, async (handle) => {
    const header = Buffer.alloc(ARCHIVE_GZIP_HEADER.length)
    const { bytesRead } = await handle.read(header, 0, header.length, 0)
    return bytesRead === header.length && header.equals(ARCHIVE_GZIP_HEADER)
  })
}

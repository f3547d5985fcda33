import { randomBytes } from 'node:crypto'
import { chmod, mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { IsnadError } from '../errors/index.js'

/*
 * The node's libp2p identity (docs/architecture.md, "Keys"): an Ed25519 key, separate from the agent keys the
 * node hosts, kept under `keys/` as the protobuf encoding libp2p uses everywhere
 * (`privateKeyToProtobuf`), mode 0600, so the peer id survives restarts.
 */

/** @default 1024 — an Ed25519 key in protobuf form is 68 bytes. */
const MAX_PEER_KEY_FILE_BYTES = 1024
const FILE_MODE = 0o600
const DIRECTORY_MODE = 0o700

/** A libp2p private key from its protobuf bytes; only Ed25519 keys are accepted. */
export function peerKeyFromBytes (bytes: Uint8Array): PrivateKey {
  let key: PrivateKey
  try {
    key = privateKeyFromProtobuf(bytes)
  } catch (cause) {
    throw new IsnadError('KEYFILE_INVALID', 'the peer key is not a protobuf-encoded libp2p private key', { cause })
  }
  if (key.type !== 'Ed25519') throw new IsnadError('KEYFILE_INVALID', `the peer key is ${key.type}, not Ed25519`)
  return key
}

export function peerKeyToBytes (key: PrivateKey): Uint8Array {
  return privateKeyToProtobuf(key)
}

/** Reads the peer key at `path`, or creates one there (mode 0600, in a 0700 directory). */
export async function loadOrCreatePeerKey (path: string): Promise<PrivateKey> {
  const existing = await readKeyFile(path)
  if (existing !== undefined) return peerKeyFromBytes(existing)
  const key = await generateKeyPair('Ed25519')
  await writePrivateFile(path, peerKeyToBytes(key))
  return key
}

/** The peer key at `path`, or undefined when there is none yet (`isnad status` without a daemon). */
export async function readPeerKey (path: string): Promise<PrivateKey | undefined> {
  const bytes = await readKeyFile(path)
  return bytes === undefined ? undefined : peerKeyFromBytes(bytes)
}

async function readKeyFile (path: string): Promise<Uint8Array | undefined> {
  try {
    const bytes = await readFile(path)
    if (bytes.length > MAX_PEER_KEY_FILE_BYTES) throw new IsnadError('KEYFILE_INVALID', `${path} is larger than ${MAX_PEER_KEY_FILE_BYTES} bytes`)
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  } catch (err) {
    if (err instanceof IsnadError) throw err
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return undefined
    throw new IsnadError('IO_ERROR', `cannot read the peer key ${path}`, { cause: err })
  }
}

/**
 * Writes through a temp file created 0600 from the start, then renames it over `path`, so the key
 * is never readable by others and a crash never leaves half a key.
 */
async function writePrivateFile (path: string, data: Uint8Array): Promise<void> {
  const directory = dirname(path)
  const temp = join(directory, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`)
  let handle: FileHandle | undefined
  try {
    await mkdir(directory, { recursive: true, mode: DIRECTORY_MODE })
    handle = await open(temp, 'wx', FILE_MODE)
    await handle.chmod(FILE_MODE) // the umask may have narrowed the mode
    await handle.writeFile(data)
    await handle.sync()
    await handle.close()
    handle = undefined
    await rename(temp, path)
    await chmod(path, FILE_MODE)
  } catch (err) {
    await handle?.close().catch(() => {})
    await rm(temp, { force: true }).catch(() => {})
    throw new IsnadError('IO_ERROR', `cannot write the peer key ${path}`, { cause: err })
  }
}

import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { peerIdFromPrivateKey } from '@libp2p/peer-id'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadOrCreatePeerKey, peerKeyFromBytes, peerKeyToBytes } from '../../../src/net/index.js'

describe('the persistent peer key', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-peer-key-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('is created once, mode 0600, protobuf-encoded, and gives the same peer id when loaded again', async () => {
    const path = join(dir, 'keys', 'peer.key')
    const first = await loadOrCreatePeerKey(path)
    expect(first.type).toBe('Ed25519')
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await stat(join(dir, 'keys'))).mode & 0o777).toBe(0o700)
    expect(new Uint8Array(await readFile(path))).toEqual(peerKeyToBytes(first))
    const again = await loadOrCreatePeerKey(path)
    expect(peerIdFromPrivateKey(again).toString()).toBe(peerIdFromPrivateKey(first).toString())
  })

  it('refuses a file that is not a libp2p Ed25519 key', async () => {
    const path = join(dir, 'peer.key')
    await writeFile(path, 'not a key')
    await expect(loadOrCreatePeerKey(path)).rejects.toMatchObject({ code: 'KEYFILE_INVALID' })
    expect(() => peerKeyFromBytes(new Uint8Array(4))).toThrow(expect.objectContaining({ code: 'KEYFILE_INVALID' }))
  })
})

import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'
import {
  delegateKey, keyEventsPath, revokeKey, rotateKey, type LifecycleContext
} from '../../../src/key-events/index.js'
import { LocalNode, initHome, type Signer } from '../../../src/node/index.js'
import { signRecord } from '../../../src/record/index.js'
import { codeOf } from '../keystore/helpers.js'
import { memoryBy } from './fixtures.js'

describe('key lifecycle in a node (record-v1 §13)', () => {
  let home: string
  let node: LocalNode
  let keystore: Keystore
  let now = Date.parse('2026-03-01T00:00:00Z')
  const clock = (): number => now
  const context = (): LifecycleContext => ({ keyring: node.keyring, keystore, now: () => new Date(now).toISOString() })
  const signer = async (did: string): Promise<Signer> => {
    const key = await keystore.load(did)
    return { did: key.did, secretKey: key.secretKey }
  }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-keyring-'))
    await initHome(home)
    keystore = createKeystore({ directory: join(home, 'keys') })
    now = Date.parse('2026-03-01T00:00:00Z')
    node = await LocalNode.open({ home, clock })
  })

  afterEach(async () => {
    await node.close()
    await rm(home, { recursive: true, force: true })
  })

  it('rotation: memories of the old key before it stay valid, later ones are refused with KEY_ROTATED', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    const before = await node.remember({ type: 'fact', summary: 'before the rotation' }, k0)
    now += 60_000
    const rotated = await rotateKey(context(), k0)
    expect(rotated).toMatchObject({ identity: k0.did, type: 'rotation', incepted: true, events: 2 })
    expect(await keystore.defaultDid()).toBe(rotated.key)
    now += 60_000
    expect(await codeOf(node.remember({ type: 'fact', summary: 'after, with the old key' }, k0))).toBe('KEY_ROTATED')
    const k1 = await signer(rotated.key)
    const after = await node.remember({ type: 'fact', summary: 'after, with the new key' }, k1)
    expect((await node.show(before.id)).id).toBe(before.id)
    expect(after.provenance).toBeDefined()
    // A copy of an old-key record dated before the rotation is still accepted (historical lookup)…
    const old = signRecord(memoryBy(k0.did, '2026-03-01T00:00:30Z', 'signed before, imported after'), k0.secretKey)
    expect((await node.ingest([old.signed])).stored).toEqual([old.id])
    // …one dated after it is refused, and nothing of its batch is stored.
    const late = signRecord(memoryBy(k0.did, '2026-03-01T00:01:30Z', 'backdated? no: dated after'), k0.secretKey)
    const fine = signRecord(memoryBy(k1.did, '2026-03-01T00:01:30Z', 'an innocent neighbour'), k1.secretKey)
    expect(await codeOf(node.ingest([fine.signed, late.signed]))).toBe('KEY_ROTATED')
    expect(await node.store.get(fine.id)).toBeNull()
  })

  it('a second rotation reveals the key committed by the first; the default key follows', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    const first = await rotateKey(context(), k0)
    now += 1000
    const second = await rotateKey(context(), await signer(first.key))
    expect(second).toMatchObject({ identity: k0.did, incepted: false, events: 3, current_key: second.key })
    expect(await keystore.defaultDid()).toBe(second.key)
    expect(await codeOf(rotateKey(context(), k0))).toBe('KEY_REVOKED')
  })

  it('delegation and revocation of a device key', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    const delegated = await delegateKey(context(), k0, { label: 'laptop' })
    expect(delegated).toMatchObject({ type: 'delegation', incepted: true })
    const device = await signer(delegated.key)
    now += 1000
    await node.remember({ type: 'fact', summary: 'from the laptop' }, device)
    expect(node.keyring.identityOf(device.did)).toBe(k0.did)
    now += 1000
    await revokeKey(context(), k0, { key: device.did, reason: 'stolen laptop' })
    now += 1000
    expect(await codeOf(node.remember({ type: 'fact', summary: 'the thief writes' }, device))).toBe('KEY_REVOKED')
  })

  it('a compromised key: the rotation says since when; its records from then on are refused', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    await delegateKey(context(), k0) // incepts
    now = Date.parse('2026-03-02T00:00:00Z')
    const stolen = signRecord(memoryBy(k0.did, '2026-03-01T12:00:00Z', 'written by the thief'), k0.secretKey)
    const honest = signRecord(memoryBy(k0.did, '2026-03-01T06:00:00Z', 'written before the leak'), k0.secretKey)
    await rotateKey(context(), k0, { compromisedSince: '2026-03-01T10:00:00Z' })
    expect(await codeOf(node.ingest([stolen.signed]))).toBe('KEY_REVOKED')
    expect((await node.ingest([honest.signed])).stored).toEqual([honest.id])
  })

  it('the keyring is a ledger: it survives a restart, and a torn last line is cut off', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    const rotated = await rotateKey(context(), k0)
    const lines = (await readFile(keyEventsPath(node.paths.data), 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[0] as string)).toHaveProperty('hash')
    await node.close()
    await appendFile(keyEventsPath(node.paths.data), '{"id":"torn')
    node = await LocalNode.open({ home, clock })
    expect(node.keyring.stateOf(k0.did)?.currentKey).toBe(rotated.key)
    now += 60_000
    expect(await codeOf(node.remember({ type: 'fact', summary: 'old key after restart' }, k0))).toBe('KEY_ROTATED')
    now += 1000
    await rotateKey(context(), await signer(rotated.key))
    expect((await readFile(keyEventsPath(node.paths.data), 'utf8')).trim().split('\n')).toHaveLength(3)
  })

  it('a key belongs to one identity: another log delegating it is a conflict', async () => {
    const k0 = await signer(await keystore.defaultDid() as string)
    const delegated = await delegateKey(context(), k0)
    const other = await signer((await keystore.create({ makeDefault: false })).did)
    expect(await codeOf(delegateKey(context(), other, { key: delegated.key }))).toBe('KEY_EVENT_CONFLICT')
  })
})

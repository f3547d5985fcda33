import { mkdtemp, rm, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hostedAgentsOf } from '../../../src/daemon/publisher.js'
import { createKeystore, type Keystore } from '../../../src/keystore/index.js'

describe('the publisher\'s hosted agents', () => {
  let dir: string
  let keystore: Keystore
  let lists: number
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isnad-hosted-'))
    keystore = createKeystore({ directory: join(dir, 'keys') })
    const list = keystore.list.bind(keystore)
    lists = 0
    keystore.list = async () => { lists++; return await list() }
  })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  it('lists the keys again only when the keys directory changed: a key added or removed is seen at once', async () => {
    const hosted = hostedAgentsOf(keystore)
    expect(await hosted()).toEqual([])
    const first = await keystore.create({ label: 'a' })
    expect(await hosted()).toEqual([first.did])
    expect(await hosted()).toEqual([first.did])
    expect(lists).toBe(2)
    const second = await keystore.create({ label: 'b' })
    expect((await hosted()).sort()).toEqual([first.did, second.did].sort())
    await unlink((await keystore.info(first.did)).file)
    expect(await hosted()).toEqual([second.did])
    expect(lists).toBe(4)
  })
})

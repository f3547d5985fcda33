import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations } from '../../../src/api-access/client.js'
import type { KeyEventResult } from '../../../src/key-events/index.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { startApi, type ApiFixture } from '../api/api-fixture.js'
import { runIsnad, withTempDir } from '../cli/run-cli.js'

describe('isnad id rotate|delegate|revoke (record-v1 §13)', () => {
  beforeAll(() => { ensureBuilt() }, 180_000)

  it('rotates, delegates and revokes from the command line; the retired key can no longer sign', async () => {
    await withTempDir(async (home) => {
      const init = await runIsnad(['init', '--json'], { home })
      expect(init.code).toBe(0)
      const old = init.json<{ default_key: { did: string } }>().default_key.did
      const rotated = await runIsnad(['id', 'rotate', '--json'], { home })
      expect(rotated.code, rotated.stderr).toBe(0)
      const rotation = rotated.json<KeyEventResult>()
      expect(rotation).toMatchObject({ identity: old, type: 'rotation', incepted: true, current_key: rotation.key })

      const refused = await runIsnad(['remember', 'with the old key', '--as', old, '--json'], { home })
      expect(refused.code).toBe(1)
      expect(refused.errorCode()).toBe('KEY_ROTATED')

      const delegated = (await runIsnad(['id', 'delegate', '--label', 'phone', '--json'], { home })).json<KeyEventResult>()
      expect(delegated).toMatchObject({ identity: old, type: 'delegation', incepted: false })
      const revoked = await runIsnad(['id', 'revoke', delegated.key, '--reason', 'lost phone', '--json'], { home })
      expect(revoked.json<KeyEventResult>()).toMatchObject({ type: 'revocation', key: delegated.key, events: 4 })
    })
  })
})

describe('key lifecycle through the HTTP API (NodeOperations over HttpOperations)', () => {
  let api: ApiFixture
  beforeAll(async () => { api = await startApi() })
  afterAll(async () => { await api.stop() })

  it('rotateKey, delegateKey and revokeKey answer with the event; errors keep their codes', async () => {
    const ops = createHttpOperations({ url: api.url, token: api.token })
    const signer = { as: api.author }
    const rotation = await ops.call('rotateKey', { ...signer })
    expect(rotation).toMatchObject({ identity: api.author, type: 'rotation', events: 2 })
    const current = { as: rotation.key }
    const delegation = await ops.call('delegateKey', { expiresAt: '2099-01-01T00:00:00Z', ...current })
    expect(delegation).toMatchObject({ type: 'delegation', events: 3 })
    await expect(ops.call('rotateKey', { ...signer })).rejects.toMatchObject({ code: 'KEY_REVOKED' })
    const revocation = await ops.call('revokeKey', { key: delegation.key, reason: 'test', ...current })
    expect(revocation).toMatchObject({ type: 'revocation', key: delegation.key, current_key: rotation.key })
    const response = await api.call('POST', '/v1/ids/revoke', { key: 'not a did' })
    expect(response.status).toBe(400)
  })
})

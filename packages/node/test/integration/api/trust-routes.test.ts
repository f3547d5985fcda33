import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpOperations, type HttpOperations } from '../../../src/api-access/client.js'
import { createAuthority, createMemoryVerifier } from '../../../src/fdr/index.js'
import { codeOfAsync } from '../../fixtures/error-code.js'
import { createAgent } from '../../fixtures/records.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { jsonOf, startApi, type ApiFixture } from './api-fixture.js'

/** The trust operations (roots, policy, reputation) over HTTP, through the client the CLI uses against a daemon: routes and client together. */


describe('trust and select over the API', () => {
  let fixture: ApiFixture
  let ops: HttpOperations

  beforeAll(async () => {
    fixture = await startApi()
    ops = createHttpOperations({ url: fixture.url, token: fixture.token })
  })

  afterAll(async () => { await fixture.stop() })

  it('roots, reputation with its path, and a selection an Authority accepts', async () => {
    const author = { as: fixture.author }
    const witness = { as: fixture.witness }
    const view = await ops.call('remember', { type: 'fact', summary: 'the canary takes 9 minutes', tags: ['ops'], ...author })
    await ops.call('attest', { id: view.id, verdict: 'confirm', ...witness })

    // The node's own agents are roots without configuration, listed first; the operator's follow.
    const own = (await ops.call('listTrustRoots', {})).roots.map((r) => r.did)
    expect(own).toEqual(expect.arrayContaining([fixture.author, fixture.witness]))
    expect((await ops.call('listTrustRoots', {})).roots.every((r) => r.source === 'own-agent')).toBe(true)
    const outsider = createAgent(41).did
    expect((await ops.call('addTrustRoot', { did: outsider })).roots.map((r) => r.did)).toEqual([...own, outsider])
    expect(await codeOfAsync(async () => (await ops.call('addTrustRoot', { did: outsider })).roots)).toBe('ALREADY_EXISTS')
    expect(await codeOfAsync(async () => (await ops.call('addTrustRoot', { did: fixture.witness })).roots)).toBe('ALREADY_EXISTS')
    expect(await jsonOf(await fixture.call('GET', '/v1/trust/roots'))).toMatchObject({ status: 200, body: { roots: [...own.map((did) => ({ did, source: 'own-agent' })), { did: outsider, source: 'added' }] } })
    const rep = await ops.call('reputation', { did: fixture.author })
    // The author is one of the node's own agents: a root without configuration (docs/trust.md §2).
    expect(rep.root).toBe(true)
    expect(rep.path).toEqual([fixture.author])
    expect(rep.reputation).toBe(1)

    const selected = (await ops.call('select', { selector: fixture.author, tags: ['ops'], query: 'canary' })).selected
    expect(selected.map((s) => [s.ref.worldId, s.verified, s.evidence?.verifiedBy])).toEqual([[view.id, true, fixture.author]])
    expect(createAuthority({ verifier: createMemoryVerifier({ signatures: nodeCryptoVerifier }) }).check(selected).accepted).toBe(true)

    expect((await ops.call('removeTrustRoot', { did: outsider })).roots.map((r) => r.did)).toEqual(own)
    expect(await codeOfAsync(async () => (await ops.call('removeTrustRoot', { did: outsider })).roots)).toBe('NOT_FOUND')
    expect(await codeOfAsync(async () => (await ops.call('removeTrustRoot', { did: fixture.witness })).roots)).toBe('USAGE')
  })

  it('refuses bad input with a stable code', async () => {
    // A malformed did:key is DID_INVALID on every path.
    expect(await jsonOf(await fixture.call('GET', '/v1/reputation/not-a-did'))).toMatchObject({ status: 400, body: { error: { code: 'DID_INVALID' } } })
    expect((await fixture.call('POST', '/v1/select', { selector: 'x', limit: 1000 })).status).toBe(400)
    expect((await fixture.call('POST', '/v1/select', { selector: 'x', extra: true })).status).toBe(400)
    expect((await fixture.call('POST', '/v1/trust/roots', { did: 'did:key:nope' })).status).toBe(400)
  })
})

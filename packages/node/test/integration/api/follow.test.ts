import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNode } from '../../../src/library.js'
import { createAgent } from '../../fixtures/records.js'
import { runIsnad } from '../cli/run-cli.js'
import { startApi, type ApiFixture } from './api-fixture.js'
import { connectMcp } from './mcp-fixture.js'

/*
 * `follow` (the table's one operation for add, remove and list; protocols/gossip-v1.md "Shards") on
 * each surface: the HTTP route, the MCP tool, the library and the CLI, each on a real node with its
 * follows in their LevelDB. Without a daemon there is no `gossip` part; test/integration/daemon/
 * shards.test.ts covers the running daemon's subscriptions.
 */

const AUTHOR = createAgent(7).did
const OTHER = createAgent(8).did

describe('follow on every surface', () => {
  let api: ApiFixture
  let mcp: Client

  beforeAll(async () => {
    api = await startApi()
    mcp = await connectMcp(api, 'follow')
  })

  afterAll(async () => {
    await mcp.close()
    await api.stop()
  })

  it('over HTTP: one route adds, lists and removes; the same codes for the same mistakes', async () => {
    const post = async (body: unknown): Promise<{ status: number, json: Record<string, unknown> }> => {
      const response = await api.call('POST', '/v1/follows', body)
      return { status: response.status, json: await response.json() as Record<string, unknown> }
    }
    expect(await post({ action: 'add', did: AUTHOR })).toEqual({ status: 200, json: { follows: [{ did: AUTHOR, since: expect.any(String) }] } })
    expect(await post({ action: 'add', tag: 'incidents' })).toMatchObject({ status: 200, json: { follows: [{ did: AUTHOR }, { tag: 'incidents' }] } })
    expect((await post({ action: 'add', did: AUTHOR })).json).toMatchObject({ error: { code: 'ALREADY_EXISTS' } })
    expect((await post({ action: 'remove', did: OTHER })).json).toMatchObject({ error: { code: 'NOT_FOUND' } })
    expect((await post({ action: 'add' })).json).toMatchObject({ error: { code: 'SCHEMA_INVALID' } })
    expect((await post({ action: 'add', did: AUTHOR, tag: 'x' })).json).toMatchObject({ error: { code: 'SCHEMA_INVALID' } })
    expect((await post({ action: 'list', tag: 'x' })).json).toMatchObject({ error: { code: 'SCHEMA_INVALID' } })
    expect((await post({ action: 'add', tag: 'two words' })).json).toMatchObject({ error: { code: 'SCHEMA_INVALID' } })
    expect((await post({ action: 'add', did: 'did:key:nope' })).json).toMatchObject({ error: { code: 'DID_INVALID' } })
    expect(await post({ action: 'remove', tag: 'incidents' })).toMatchObject({ status: 200, json: { follows: [{ did: AUTHOR }] } })
  })

  it('as the MCP tool `follow`, on the same node', async () => {
    const call = async (args: Record<string, unknown>): Promise<{ isError?: boolean, text: string }> => {
      const result = await mcp.callTool({ name: 'follow', arguments: args }) as { isError?: boolean, content: Array<{ text: string }> }
      return { ...(result.isError === undefined ? {} : { isError: result.isError }), text: result.content[0]?.text ?? '' }
    }
    const listed = await call({ action: 'list' })
    expect(listed.isError).not.toBe(true)
    expect(listed.text).toContain(AUTHOR)
    expect((await call({ action: 'add', did: OTHER })).text).toContain(OTHER)
    const again = await call({ action: 'add', did: OTHER })
    expect(again.isError).toBe(true)
    expect(again.text).toMatch(/^ALREADY_EXISTS: /)
    expect((await call({ action: 'remove', did: OTHER })).text).not.toContain(OTHER)
  })

  it('from the library and the CLI, kept in the node\'s LevelDB from one process to the next', async () => {
    const home = await mkdtemp(join(tmpdir(), 'isnad-follow-'))
    try {
      const node = await createNode({ home, connect: 'local' })
      expect(await node.follow({ action: 'add', did: AUTHOR })).toEqual({ follows: [{ did: AUTHOR, since: expect.any(String) }] })
      await node.close()

      const listed = await runIsnad(['follow', 'list', '--json'], { home })
      expect(listed.code, listed.stderr).toBe(0)
      expect(JSON.parse(listed.stdout)).toEqual({ follows: [{ did: AUTHOR, since: expect.any(String) }] })
      const tag = await runIsnad(['follow', 'add', '--tag', 'deploys'], { home })
      expect(tag.code, tag.stderr).toBe(0)
      expect(tag.stdout).toContain('tag    deploys')
      const removed = await runIsnad(['follow', 'remove', AUTHOR], { home })
      expect(removed.code, removed.stderr).toBe(0)
      expect(removed.stdout).not.toContain(AUTHOR)
      const missing = await runIsnad(['follow', 'remove', AUTHOR], { home })
      expect(missing.code).not.toBe(0)
      expect(missing.stderr).toContain('NOT_FOUND')

      const reopened = await createNode({ home, connect: 'local' })
      expect((await reopened.follow({ action: 'list' })).follows).toEqual([{ tag: 'deploys', since: expect.any(String) }])
      await reopened.close()
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})

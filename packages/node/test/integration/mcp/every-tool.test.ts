import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { createContext } from '../../../src/cli/command-context.js'
import { createOutput } from '../../../src/cli/output.js'
import { startDaemon, type Daemon } from '../../../src/daemon/index.js'
import { createNode } from '../../../src/library.js'
import { CHAIN_KIND, EVIDENCE_KIND, createMcpServer, type EvidenceEnvelope, type MemoryChain } from '../../../src/mcp/index.js'
import { PRESENTERS, TOOLS } from '../../../src/mcp/tools.js'
import { argumentKindOf, baseTypeOf } from '../../../src/operations/index.js'
import { homePrivatePaths, nodePaths } from '../../../src/home/home-paths.js'
import { TRUST_LEVELS, type MemoryView, type TrustResult } from '../../../src/schema/index.js'

/*
 * Every MCP tool, the resources and the prompt, driven through the official SDK's Client over its
 * in-memory transport pair against the real server (createMcpServer with the CLI's own node access)
 * on a real home with LevelDB in a temp dir: first over the data directory, then through a real
 * daemon (libp2p on 127.0.0.1) started meanwhile, for the tools that need a running node. The last
 * test calls every tool of the table no case above called, with an input derived from its spec, so a
 * new operation's tool is exercised here without a line of its own.
 */

const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

function textOf (result: CallToolResult): string {
  const first = result.content[0]
  return first?.type === 'text' ? first.text : ''
}

describe('every MCP tool, resource and prompt, through the SDK client', () => {
  const called = new Set<string>()
  let client: Client
  let home: string
  let docs: string
  let witness: string
  let memory: string
  let daemon: Daemon | undefined

  /** A tool call that must succeed: its JSON answer. */
  async function call<T> (name: string, args: Record<string, unknown> = {}): Promise<T> {
    called.add(name)
    const result = await client.callTool({ name, arguments: args }) as CallToolResult
    expect(result.isError, `${name}: ${textOf(result)}`).not.toBe(true)
    expect(result.structuredContent, name).toEqual(JSON.parse(textOf(result)))
    return JSON.parse(textOf(result)) as T
  }

  /** A tool call that must fail with this code. */
  async function refused (name: string, args: Record<string, unknown>, code: string): Promise<void> {
    called.add(name)
    const result = await client.callTool({ name, arguments: args }) as CallToolResult
    expect(result.isError, name).toBe(true)
    expect(textOf(result), name).toMatch(new RegExp(`^${code}: `))
  }

  async function readJson<T> (uri: string): Promise<T> {
    const { contents } = await client.readResource({ uri })
    expect(contents).toHaveLength(1)
    const content = contents[0] as TextResourceContents
    expect(content).toMatchObject({ uri, mimeType: 'application/json' })
    return JSON.parse(content.text) as T
  }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-mcp-all-'))
    docs = join(home, 'docs')
    await mkdir(docs)
    const seed = await createNode({ home })
    witness = (await seed.createKey({ label: 'witness' })).did
    await seed.close()
    const access = (): ReturnType<typeof createContext> => createContext({ home }, createOutput(true), {})
    const server = createMcpServer({ access, version: 'test', anchorFiles: { ...homePrivatePaths(nodePaths(home)), allowed: [docs] } })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    client = new Client({ name: 'every-tool', version: '1.0.0' })
    await client.connect(clientSide)
  }, 60_000)

  afterAll(async () => {
    await client?.close()
    await daemon?.stop()
    await rm(home, { recursive: true, force: true })
  })

  it('offers tools, resources and prompts', () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} })
    expect(client.getInstructions()).toMatch(/isnad:\/\/memory\/\{id\}.*weigh_memory/)
  })

  it('remembers, shows, queries, asks witnesses, attests, anchors and explains over the data directory', async () => {
    const status = await call<{ agents: Array<{ did: string }> }>('status')
    expect(status.agents.map((a) => a.did)).toContain(witness)

    const remembered = await call<EvidenceEnvelope>('remember', { type: 'fact', summary: 'the staging deploy needs a VPN', tags: ['ops'] })
    expect(remembered.kind).toBe(EVIDENCE_KIND)
    memory = remembered.memories[0]?.id ?? ''
    expect(remembered.memories[0]?.trust?.level).toBe('Unverified')
    const shown = await call<EvidenceEnvelope>('show_memory', { id: memory })
    expect(shown.memories[0]?.claim.summary).toBe('the staging deploy needs a VPN')
    const page = await call<EvidenceEnvelope>('query_memories', { tags: ['ops'] })
    expect(page.memories.map((m) => m.id)).toEqual([memory])

    const request = await call<{ id: string }>('request_witnesses', { id: memory, to: [witness] })
    const inbox = await call<{ items: Array<{ request: string, memory: string }> }>('inbox')
    expect(inbox.items).toContainEqual(expect.objectContaining({ request: request.id, memory }))
    const attested = await call<EvidenceEnvelope & { attestation: string }>('attest', { id: memory, verdict: 'confirm', notes: 'checked the runbook', as: witness })
    expect(attested.memories[0]?.witnesses).toEqual({ confirm: 1, dispute: 0, partial: 0 })

    await writeFile(join(docs, 'runbook.txt'), 'staging: connect the VPN first\n')
    const anchored = await call<EvidenceEnvelope & { anchor: string }>('anchor', { id: memory, anchor: { source: 'file', path: join(docs, 'runbook.txt') } })
    expect(anchored.memories[0]?.anchors).toEqual({ total: 1, verified: 1 })
    // Outside the directories `isnad mcp --anchor-dir` allowed: the refusal says how to allow one.
    await writeFile(join(home, 'elsewhere.txt'), 'not under docs/\n')
    const outside = await client.callTool({ name: 'anchor', arguments: { id: memory, anchor: { source: 'file', path: join(home, 'elsewhere.txt') } } }) as CallToolResult
    expect(textOf(outside)).toMatch(/^PATH_FORBIDDEN: .*allow its directory with `--anchor-dir <dir>` in the arguments of `isnad mcp`/)
    const { checks } = await call<{ checks: Array<{ id: string, state: string }> }>('check_anchors', { id: memory })
    expect(checks).toEqual([expect.objectContaining({ id: anchored.anchor, state: 'verified' })])

    const trust = await call<TrustResult>('explain_trust', { id: memory })
    expect(trust.counted.attestations.map((a) => a.id)).toEqual([attested.attestation])
    expect(trust.counted.anchors.map((a) => a.id)).toEqual([anchored.anchor])
    const reputation = await call<{ did: string, score: number }>('get_reputation', { did: witness })
    expect(reputation.did).toBe(witness)
    // The node's own agents are its roots, listed as such; none added by the operator.
    const { roots } = await call<{ roots: Array<{ did: string, source: string }> }>('list_trust_roots')
    expect(roots.map((r) => r.source)).toEqual(['own-agent', 'own-agent'])
    expect(roots.map((r) => r.did)).toContain(witness)
    const about = await call<{ did: string, key: { label?: string } | null, root: { source: string } | null }>('about_agent', { did: witness })
    expect(about).toMatchObject({ did: witness, root: { source: 'own-agent' } })
    expect(about.key).not.toBeNull()

    const followed = await call<{ follows: Array<{ tag?: string }> }>('follow', { action: 'add', tag: 'ops' })
    expect(followed.follows).toContainEqual(expect.objectContaining({ tag: 'ops' }))

    const selected = await call<EvidenceEnvelope>('select_memories', { selector: 'every-tool-test', tags: ['ops'] })
    expect(selected.memories.map((m) => m.id)).toEqual([memory])
  })

  it('exports, verifies and proves over the data directory', async () => {
    const bundle = await call<{ format: string, records: unknown[] }>('export_bundle', { ids: [memory] })
    expect(bundle.records.length).toBeGreaterThanOrEqual(4) // the memory, its request, attestation and anchor
    expect((await call<{ valid: boolean }>('verify', { document: bundle })).valid).toBe(true)
    const proof = await call<Record<string, unknown>>('prove_record', { id: memory })
    expect((await call<{ valid: boolean }>('verify', { document: proof })).valid).toBe(true)
    const checkpoint = await call<{ record: { size: number } }>('latest_checkpoint')
    expect(checkpoint.record.size).toBeGreaterThanOrEqual(4)
    const health = await call<{ running: boolean }>('network_health')
    expect(health.running).toBe(false)
    // Without a running node the network's own tools say so.
    await refused('peers', {}, 'USAGE')
    await refused('network_stats', {}, 'USAGE')
  })

  it('lists each memory as a resource and reads it, and its isnad chain, by the templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['isnad://memory/{id}', 'isnad://memory/{id}/chain'])
    const { resources } = await client.listResources()
    expect(resources).toEqual([expect.objectContaining({ uri: `isnad://memory/${memory}`, title: 'the staging deploy needs a VPN', mimeType: 'application/json' })])

    const read = await readJson<EvidenceEnvelope & { view: MemoryView }>(`isnad://memory/${memory}`)
    expect(read.kind).toBe(EVIDENCE_KIND)
    expect(read.memories[0]?.id).toBe(memory)
    expect(read.view.id).toBe(memory)
    // The full view is the signed evidence: the verify tool checks it with nothing else.
    expect((await call<{ valid: boolean }>('verify', { document: read.view })).valid).toBe(true)

    const chain = await readJson<MemoryChain>(`isnad://memory/${memory}/chain`)
    expect(chain).toMatchObject({ kind: CHAIN_KIND, id: memory, via: 'data directory', lineage: { supersedes: null, superseded_by: null, derived_from: [] } })
    expect(chain.notice).toMatch(/evidence, not instructions/)
    expect(chain.trust?.level).toBe(read.memories[0]?.trust?.level)
    expect(chain.trust?.reason).toMatch(/band/)
    expect(chain.witnesses).toEqual([expect.objectContaining({ did: witness, verdict: 'confirm', notes: 'checked the runbook', counted: true })])
    expect(chain.anchors).toEqual([expect.objectContaining({ type: 'cid', state: 'verified', counted: true })])

    // A malformed id is CID_INVALID, an unknown memory NOT_FOUND, another URI not isnad's.
    await expect(client.readResource({ uri: 'isnad://memory/not-a-cid' })).rejects.toThrow(/CID_INVALID/)
    await expect(client.readResource({ uri: 'isnad://memory/bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje/chain' })).rejects.toThrow(/NOT_FOUND/)
    await expect(client.readResource({ uri: 'file:///etc/hostname' })).rejects.toThrow(/not found/)
  })

  it('pages the resource list with the query\'s cursor', async () => {
    // Fifty more memories, written in one session of the library (the server opens the home per call).
    const bulk = await createNode({ home, connect: 'local' })
    try {
      for (let i = 0; i < 50; i++) await bulk.remember({ summary: `note ${i}`, tags: ['bulk'] })
    } finally {
      await bulk.close()
    }
    const first = await client.listResources()
    expect(first.resources).toHaveLength(50)
    expect(first.nextCursor).toBeTypeOf('string')
    const second = await client.listResources({ cursor: first.nextCursor })
    expect(second.resources).toHaveLength(1)
    expect(second.nextCursor).toBeUndefined()
    expect(new Set([...first.resources, ...second.resources].map((r) => r.uri)).size).toBe(51)
  }, 60_000)

  it('orders memories by trust, never a lower level above a higher one, and filters by level', async () => {
    // After the paging test: the anchored memory and 50 unwitnessed notes.
    const all = await call<EvidenceEnvelope>('query_memories', { limit: 100 })
    const levels = all.memories.map((m) => TRUST_LEVELS.indexOf(m.trust?.level ?? 'Unverified'))
    expect(all.memories[0]?.id).toBe(memory)
    expect(levels).toEqual([...levels].sort((a, b) => b - a))
    const attested = await call<EvidenceEnvelope>('query_memories', { minLevel: 'Attested' })
    expect(attested.memories.map((m) => m.id)).toEqual([memory])
  })

  it('prompts how to weigh a memory by its level, with the memory\'s chain when given its id', async () => {
    const { prompts } = await client.listPrompts()
    expect(prompts).toEqual([expect.objectContaining({ name: 'weigh_memory', arguments: [expect.objectContaining({ name: 'id', required: false })] })])
    const general = await client.getPrompt({ name: 'weigh_memory' })
    expect(general.messages).toHaveLength(1)
    const guidance = general.messages[0]?.content
    const text = guidance?.type === 'text' ? guidance.text : ''
    for (const level of TRUST_LEVELS) expect(text).toContain(`| ${level} |`)
    expect(text).toMatch(/evidence, not an instruction/)

    const specific = await client.getPrompt({ name: 'weigh_memory', arguments: { id: memory } })
    const embedded = specific.messages.map((m) => m.content).find((c) => c.type === 'resource')
    expect(embedded?.type === 'resource' ? embedded.resource.uri : '').toBe(`isnad://memory/${memory}/chain`)
    const chain = JSON.parse(embedded?.type === 'resource' && 'text' in embedded.resource ? embedded.resource.text : '{}') as MemoryChain
    expect(chain.witnesses.map((w) => w.did)).toEqual([witness])
    await expect(client.getPrompt({ name: 'weigh_memory', arguments: { id: 'not-a-cid' } })).rejects.toThrow(/CID_INVALID/)
    await expect(client.getPrompt({ name: 'weigh_memory', arguments: { memory } })).rejects.toThrow(/`memory` is now `id`/)
  })

  it('goes through a real daemon for the network\'s tools', async () => {
    daemon = await startDaemon({ home, listen: LOOPBACK, bootstrap: [], heartbeatMs: 60_000 })
    const { peers } = await call<{ peers: unknown[] }>('peers')
    expect(peers).toEqual([])
    const stats = await call<{ peers: number }>('network_stats')
    expect(stats.peers).toBe(0)
    expect((await call<{ running: boolean }>('network_health')).running).toBe(true)
    const shown = await call<EvidenceEnvelope>('show_memory', { id: memory })
    expect(shown.memories[0]?.source.via).toBe('daemon')
    expect((await readJson<MemoryChain>(`isnad://memory/${memory}/chain`)).via).toBe('daemon')
  }, 60_000)

  it('calls every tool of the table: those without a case above with an input derived from its spec alone', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort(), 'the server lists the table\'s tools').toEqual([...TOOLS.keys()].sort())
    for (const tool of TOOLS.values()) {
      if (called.has(tool.name)) continue
      const input = derivedInput(tool.input, { record: memory, agent: witness })
      expect(typeof input === 'string' ? `${tool.name}: ${input}` : '', 'a tool whose input the spec alone cannot give needs a case of its own').toBe('')
      const answer = await call<unknown>(tool.name, input as Record<string, unknown>)
      // A tool without a presenter answers its operation's output, a list as { items }; one that
      // declares other agents' claims answers it under the evidence notice.
      if (PRESENTERS[tool.spec.name] === undefined) {
        const { notice, ...rest } = answer as { notice?: unknown }
        const claims = 'claims' in tool.spec.mcp && tool.spec.mcp.claims === true
        expect(notice === undefined ? undefined : String(notice), tool.name).toEqual(claims ? expect.stringMatching(/evidence, not instructions/) : undefined)
        const bare = claims ? rest : answer
        const output = tool.spec.output.safeParse(baseTypeOf(tool.spec.output) === 'array' ? (bare as { items: unknown }).items : bare)
        expect(output.error, tool.name).toBeUndefined()
      }
    }
    expect(TOOLS.size).toBeGreaterThan(15)
  }, 60_000)
})

/**
 * An input for a tool from its schema alone: each required field holding a record gets `values.record`, an
 * agent `values.agent`, a list of them one of it; optional fields are left out. Or why it cannot be given.
 */
function derivedInput (input: z.ZodObject, values: { record: string, agent: string }): Record<string, unknown> | string {
  const derived: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    if (field.safeParse(undefined).success) continue
    const kind = argumentKindOf(field)
    if (kind === 'other') return `its required field \`${name}\` is neither a record nor an agent`
    derived[name] = { record: values.record, records: [values.record], agent: values.agent, agents: [values.agent] }[kind]
  }
  return derived
}

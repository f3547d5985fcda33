import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Command } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequestOf } from '../../../src/api-access/client.js'
import { OPERATIONS, parseOperationInput, type OperationSpec } from '../../../src/operations/index.js'
import { createProgram } from '../../../src/cli/index.js'
import { plansOf } from '../../../src/cli/table-commands.js'
import { createOutput } from '../../../src/cli/output.js'
import { createNode, type IsnadNode } from '../../../src/library.js'
import { startApi, type ApiFixture } from './api-fixture.js'
import { connectMcp } from './mcp-fixture.js'

/*
 * The table of operations walked against every surface. Each operation must be a
 * route of the OpenAPI document with the table's input names, a CLI command, an MCP tool (or a
 * stated reason why not) with the same names, and a library call; and the same bad input (an
 * unknown key, a malformed CID) must get the same code over HTTP, MCP and the library.
 */

interface OpenApiOperation {
  operationId?: string
  parameters?: Array<{ name: string, in: string }>
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>, additionalProperties?: unknown, $ref?: string } }> }
}

const BAD_CID = 'not-a-cid'

/** The top-level fields of an input that hold record ids (a string or a list of them). */
function cidFieldsOf (spec: OperationSpec): Array<{ name: string, value: unknown }> {
  const fields: Array<{ name: string, value: unknown }> = []
  for (const [name, field] of Object.entries(spec.input.shape as Record<string, { safeParse: (v: unknown) => { error?: { issues: Array<{ params?: { isnad?: string } }> } } }>)) {
    for (const value of [BAD_CID, [BAD_CID]]) {
      const issues = field.safeParse(value).error?.issues ?? []
      if (issues.some((i) => i.params?.isnad === 'CID_INVALID')) fields.push({ name, value })
    }
  }
  return fields
}

/** The unknown key's input: for a body that is one field's value (a document), the key goes beside that field. */
const withUnknownKey = { bogus: 1 }

function codeOf (text: string): string | undefined {
  return /^([A-Z_]+): /.exec(text)?.[1]
}

function findCommand (program: Command, words: string[]): Command | undefined {
  let command: Command | undefined = program
  for (const word of words) command = command?.commands.find((c) => c.name() === word)
  return command
}

describe('the table of operations, on every surface', () => {
  let api: ApiFixture
  let document: { paths: Record<string, Record<string, OpenApiOperation>> }
  let mcp: Client
  let tools: Array<{ name: string, inputSchema: { properties?: Record<string, unknown>, additionalProperties?: unknown } }>
  let library: IsnadNode
  let libraryHome: string

  beforeAll(async () => {
    api = await startApi()
    document = await (await api.call('GET', '/v1/openapi.json')).json() as typeof document
    // The MCP server over the same operations the API serves, through the SDK's in-memory transport.
    mcp = await connectMcp(api, 'table-walk')
    tools = (await mcp.listTools()).tools as typeof tools
    // The library refuses bad input before it reaches a node: a home of its own, never opened.
    libraryHome = await mkdtemp(join(tmpdir(), 'isnad-table-'))
    library = await createNode({ home: libraryHome, connect: 'local' })
  })

  afterAll(async () => {
    await mcp.close()
    await library.close()
    await rm(libraryHome, { recursive: true, force: true })
    await api.stop()
  })

  it('names every operation once, on a distinct route, command and tool', () => {
    const distinct = (values: string[]): void => { expect(new Set(values).size).toBe(values.length) }
    distinct(OPERATIONS.map((s) => s.name))
    distinct(OPERATIONS.map((s) => `${s.http.method} ${s.http.path}`))
    distinct(OPERATIONS.map((s) => s.cli.command))
    distinct(OPERATIONS.flatMap((s) => 'tool' in s.mcp ? [s.mcp.tool] : []))
  })

  it('declares closed inputs with every field described for a person and an LLM', () => {
    for (const spec of OPERATIONS) {
      expect(spec.input.safeParse({ ...withUnknownKey }).success, `${spec.name} refuses unknown keys`).toBe(false)
      for (const [name, field] of Object.entries(spec.input.shape as Record<string, { description?: string }>)) {
        expect(field.description, `${spec.name}.${name}`).toBeTypeOf('string')
      }
      expect(spec.summary.length, spec.name).toBeGreaterThan(20)
    }
  })

  it('is an OpenAPI route with the table\'s input names', () => {
    for (const spec of OPERATIONS) {
      const operation = document.paths[spec.http.path]?.[spec.http.method]
      expect(operation?.operationId, `${spec.http.method} ${spec.http.path}`).toBe(spec.name)
      const names = Object.keys(spec.input.shape)
      const params = (operation?.parameters ?? []).map((p) => p.name)
      const body = operation?.requestBody?.content['application/json']?.schema
      if (spec.http.bodyField !== undefined) {
        expect([...params, spec.http.bodyField].sort(), spec.name).toEqual([...names].sort())
      } else {
        expect([...params, ...Object.keys(body?.properties ?? {})].sort(), spec.name).toEqual([...names].sort())
        if (body !== undefined) expect(body.additionalProperties, spec.name).toBe(false)
      }
    }
  })

  it('is a CLI command', () => {
    const program = createProgram(createOutput(true), () => {})
    for (const spec of OPERATIONS) {
      const [words, option] = spec.cli.command.split(' --')
      const command = findCommand(program, (words ?? '').split(' '))
      expect(command, `isnad ${spec.cli.command}`).toBeDefined()
      if (option !== undefined) expect(command?.options.map((o) => o.long), `isnad ${spec.cli.command}`).toContain(`--${option}`)
    }
  })

  it('its CLI command is generated from its spec, and every option fills one of the table\'s input fields or shapes the output', () => {
    const program = createProgram(createOutput(true), () => {})
    const all = (command: Command, words: string[]): Array<[string, Command]> => command.commands.flatMap((c) => [[[...words, c.name()].join(' '), c] as [string, Command], ...all(c, [...words, c.name()])])
    const generated = all(program, []).flatMap(([words, command]) => (plansOf(command) ?? []).map((plan) => ({ words, command, plan })))
    // Every operation but `status`, whose command is a process command (docs/architecture.md).
    expect(generated.map(({ plan }) => plan.spec.name).sort()).toEqual(OPERATIONS.map((s) => s.name).filter((n) => n !== 'status').sort())
    for (const { words, command, plan } of generated) {
      const { spec } = plan
      expect(spec.cli.command.split(' --')[0], `isnad ${words} runs ${spec.name}`).toBe(words)
      const fields = Object.keys(spec.input.shape)
      for (const field of plan.args) expect(fields, `isnad ${words} <${field}>`).toContain(field)
      for (const [name, source] of plan.options) {
        expect(command.options.map((o) => o.attributeName()), `isnad ${words}: --${name} is an option`).toContain(name)
        if ('field' in source) expect(fields, `isnad ${words} ${source.long ?? name}`).toContain(source.field)
        else expect(['quiet', 'out'], `isnad ${words} ${source.long ?? name}`).toContain(source.kind)
      }
      // Every option of the command belongs to one of the operations it runs, or is the flag that selects one.
      const plans = plansOf(command) ?? []
      for (const option of command.options) {
        const name = option.attributeName()
        expect(plans.some((p) => p.options.has(name) || p.flag === name), `isnad ${words} ${option.long ?? name}`).toBe(true)
      }
    }
  })

  it('is an MCP tool with the table\'s input names (no passphrase), or says why not', () => {
    for (const spec of OPERATIONS) {
      if (!('tool' in spec.mcp)) {
        expect(spec.mcp.excluded.length, spec.name).toBeGreaterThan(20)
        expect(tools.map((t) => t.name)).not.toContain(spec.name)
        continue
      }
      const tool = tools.find((t) => 'tool' in spec.mcp && t.name === spec.mcp.tool)
      expect(tool, spec.mcp.tool).toBeDefined()
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort(), spec.mcp.tool).toEqual(Object.keys(spec.input.shape).filter((n) => n !== 'passphrase').sort())
      expect(tool?.inputSchema.additionalProperties, spec.mcp.tool).toBe(false)
    }
  })

  it('refuses an unknown key with SCHEMA_INVALID on HTTP, MCP and the library', async () => {
    for (const spec of OPERATIONS) {
      const input: Record<string, unknown> = { ...withUnknownKey }
      // Path parameters must be valid for the request to reach the operation at all.
      for (const name of [...spec.http.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string)) {
        input[name] = name === 'did' ? api.author : 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje'
      }
      // A body that is one field's value takes any key: there the unknown key is the MCP / library's alone.
      if (spec.http.bodyField === undefined) {
        const request = httpRequestOf(spec, input)
        const query = request.query === undefined ? '' : `?${request.query.toString()}`
        const response = await api.call(request.method, `${request.path}${query}`, request.body)
        expect(response.status, `HTTP ${spec.name}`).toBe(400)
        expect(((await response.json()) as { error: { code: string } }).error.code, `HTTP ${spec.name}`).toBe('SCHEMA_INVALID')
      }
      if ('tool' in spec.mcp) {
        const result = await mcp.callTool({ name: spec.mcp.tool, arguments: input }) as { isError?: boolean, content: Array<{ text: string }> }
        expect(codeOf(result.content[0]?.text ?? ''), `MCP ${spec.mcp.tool}`).toBe('SCHEMA_INVALID')
      }
      await expect(library.call(spec.name as never, input as never), `library ${spec.name}`).rejects.toMatchObject({ code: 'SCHEMA_INVALID' })
    }
  })

  it('refuses a malformed record id with CID_INVALID on HTTP, MCP and the library', async () => {
    let checked = 0
    for (const spec of OPERATIONS) {
      for (const { name, value } of cidFieldsOf(spec)) {
        checked++
        const input = { [name]: value }
        expect(() => parseOperationInput(spec, input), `${spec.name}.${name}`).toThrow(expect.objectContaining({ code: 'CID_INVALID' }))
        const request = httpRequestOf(spec, input)
        const query = request.query === undefined ? '' : `?${request.query.toString()}`
        const response = await api.call(request.method, `${request.path}${query}`, request.body)
        expect(((await response.json()) as { error: { code: string } }).error.code, `HTTP ${spec.name}.${name}`).toBe('CID_INVALID')
        if ('tool' in spec.mcp) {
          const result = await mcp.callTool({ name: spec.mcp.tool, arguments: input }) as { content: Array<{ text: string }> }
          expect(codeOf(result.content[0]?.text ?? ''), `MCP ${spec.mcp.tool}.${name}`).toBe('CID_INVALID')
        }
        await expect(library.call(spec.name as never, input as never), `library ${spec.name}.${name}`).rejects.toMatchObject({ code: 'CID_INVALID' })
      }
    }
    // show, explainTrust, attest, addAnchor, checkAnchors, exportBundle, proveRecord, requestWitnesses, remember (supersedes).
    expect(checked).toBeGreaterThanOrEqual(9)
  })
})

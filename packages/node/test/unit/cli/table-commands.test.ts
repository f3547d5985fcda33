import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Command, CommanderError } from 'commander'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { IsnadError } from '../../../src/errors/index.js'
import { defineOperation, parseOperationInput, type OperationNode, type OperationSpec } from '../../../src/operations/index.js'
import type { CommandContext } from '../../../src/cli/command-context.js'
import { plansOf, registerTableCommands } from '../../../src/cli/table-commands.js'
import { numberFault } from '../../../src/cli/table-options.js'
import { createKeystore } from '../../../src/keystore/index.js'

/*
 * The command generator (src/cli/table-commands.ts) over a table of its own: each feature of a
 * spec's `cli` declaration (CliBinding) on a command line, the input the operation receives, and
 * what the command prints and exits with. The operations echo their parsed input, so what the
 * command line turned into is what the test reads.
 */

const DEFAULT_DID = 'did:key:z6MkDefault'
const http = { method: 'post', path: '/test', in: 'body' } as const
const echoed = z.record(z.string(), z.unknown())

const note = defineOperation({
  name: 'note',
  summary: 'Keep a note; returns it with its id.',
  input: z.strictObject({
    text: z.string().max(32).describe('the note'),
    body: z.string().max(16).describe('its body').optional(),
    tags: z.array(z.string()).describe('labels').optional(),
    level: z.number().min(0).max(1).describe('how sure').optional(),
    kind: z.enum(['plain', 'loud']).describe('the kind').optional(),
    sessionId: z.string().describe('the session').optional(),
    author: z.string().describe('who writes it'),
    passphrase: z.string().describe('encrypts it').optional()
  }),
  output: z.strictObject({ id: z.string().describe('the new note\'s id'), input: echoed, valid: z.boolean() }),
  errors: [],
  http,
  cli: {
    command: 'note add',
    args: ['text'],
    fields: {
      text: { value: 'words' },
      body: { short: 'b', file: { maxBytes: 16 } },
      tags: { flag: 'tag', value: 'tag' },
      level: { short: 'l', value: '0..1' },
      sessionId: { flag: 'session', value: 'id' },
      author: { defaultKey: true },
      passphrase: { passphraseFlag: 'encrypt' }
    },
    quiet: 'id',
    out: () => 'one note',
    fails: (output) => !output.valid,
    render: (output) => `note ${output.id}: ${JSON.stringify(output.input)}`
  },
  mcp: { excluded: 'a test operation' },
  run: async (_node, input) => ({ id: 'n1', input, valid: input.text !== 'bad' })
})

const check = defineOperation({
  name: 'check',
  summary: 'Check a JSON document read from a file.',
  input: z.strictObject({ document: z.record(z.string(), z.unknown()).describe('a document') }),
  output: echoed,
  errors: [],
  http: { ...http, path: '/check' },
  cli: { command: 'check', args: ['document'], fields: { document: { value: 'file', file: { maxBytes: 64, json: true } } } },
  mcp: { excluded: 'a test operation' },
  run: async (_node, { document }) => document
})

const list = defineOperation({
  name: 'list',
  summary: 'List notes since a time.',
  input: z.strictObject({ since: z.string().describe('since when').optional(), limit: z.number().int().min(1).max(10).describe('how many').optional() }),
  output: z.strictObject({ input: echoed }),
  errors: [],
  http: { ...http, path: '/list' },
  cli: { command: 'list', render: ({ input }) => `list ${JSON.stringify(input)}` },
  mcp: { excluded: 'a test operation' },
  run: async (_node, input) => ({ input })
})

const count = defineOperation({
  name: 'count',
  summary: 'Count notes with some words.',
  input: z.strictObject({ words: z.string().describe('words they hold').optional(), limit: z.number().int().min(1).max(5).describe('at most').optional() }),
  output: z.strictObject({ counted: z.number(), input: echoed }),
  errors: [],
  http: { ...http, path: '/count' },
  cli: { command: 'list --count', json: 'counted', render: ({ counted, input }) => `count ${counted} ${JSON.stringify(input)}` },
  mcp: { excluded: 'a test operation' },
  run: async (_node, input) => ({ counted: 3, input })
})

const pin = defineOperation({
  name: 'pin',
  summary: 'Pin a note to a place, named by one of several options.',
  input: z.strictObject({ place: z.union([z.strictObject({ url: z.string() }), z.strictObject({ shelf: z.string() })]).describe('where') }),
  output: z.strictObject({ input: echoed }),
  errors: [],
  http: { ...http, path: '/pin' },
  cli: {
    command: 'pin',
    fields: {
      place: {
        from: {
          options: { url: { value: 'url', description: 'a web page' }, shelf: { value: 'name', description: 'a shelf' } },
          build: (given) => {
            if ((given.url === undefined) === (given.shelf === undefined)) throw new IsnadError('USAGE', 'name one of --url, --shelf')
            return given.url === undefined ? { shelf: given.shelf } : { url: given.url }
          }
        }
      }
    },
    render: ({ input }) => JSON.stringify(input)
  },
  mcp: { excluded: 'a test operation' },
  run: async (_node, input) => ({ input })
})

const SPECS = [note, check, list, count, pin] as unknown as readonly OperationSpec[]

interface Run { stdout: string[], stderr: string[], exit: number, error?: unknown }

/** Runs `args` on a program of the test table; the context runs an operation with the table's parse and its handler. */
async function run (args: string[], options: { json?: boolean, passphrase?: string } = {}): Promise<Run> {
  const result: Run = { stdout: [], stderr: [], exit: 0 }
  const context = (): CommandContext => ({
    home: dir,
    out: { json: options.json === true, stdout: (text) => { result.stdout.push(text) }, stderr: (text) => { result.stderr.push(text) } },
    keystore: () => createKeystore({ directory: join(dir, 'keys') }),
    daemon: async () => null,
    call: (async (name: string, raw: unknown) => {
      const spec = SPECS.find((s) => s.name === name) as OperationSpec
      return await spec.run({} as OperationNode, parseOperationInput(spec, raw), undefined)
    }) as CommandContext['call'],
    signerDid: async (as) => as ?? DEFAULT_DID,
    passphrase: async () => options.passphrase
  })
  const program = new Command('t').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
  registerTableCommands(program, context, (code) => { result.exit = code }, SPECS)
  try {
    await program.parseAsync(['node', 't', ...args])
  } catch (error) {
    result.error = error
  }
  return result
}

const codeOf = (error: unknown): string | undefined => error instanceof IsnadError ? error.code : error instanceof CommanderError ? 'USAGE' : undefined
const inputOf = (result: Run): Record<string, unknown> => (JSON.parse(result.stdout.join('\n')) as { input: Record<string, unknown> }).input

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'isnad-generator-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

describe('a command generated from an operation\'s cli declaration', () => {
  it('takes short flags, renamed options and repeatable lists, and gives the operation its field names', async () => {
    const result = await run(['note', 'add', 'hello', '-b', 'more', '--tag', 'a', '--tag', 'b', '-l', '0.5', '--kind', 'loud', '--session', 's1'], { json: true })
    expect(result.error).toBeUndefined()
    expect(inputOf(result)).toEqual({ text: 'hello', body: 'more', tags: ['a', 'b'], level: 0.5, kind: 'loud', sessionId: 's1', author: DEFAULT_DID })
  })

  it('labels its arguments and option values as declared, and lists an enum\'s choices', () => {
    const program = new Command('t')
    registerTableCommands(program, () => { throw new Error('not run') }, () => {}, SPECS)
    const add = program.commands.find((c) => c.name() === 'note')?.commands.find((c) => c.name() === 'add') as Command
    expect(add.usage()).toBe('[options] <words>')
    const flags = add.options.map((o) => o.flags)
    expect(flags).toEqual(expect.arrayContaining(['-b, --body <body>', '--body-file <path>', '--tag <tag>', '-l, --level <0..1>', '--session <id>', '--encrypt', '-q, --quiet', '-o, --out <file>']))
    expect(flags.some((f) => f.includes('passphrase'))).toBe(false)
    expect(add.options.find((o) => o.long === '--kind')?.argChoices).toEqual(['plain', 'loud'])
    expect(add.options.find((o) => o.long === '--quiet')?.description).toBe('print only the new note\'s id')
    expect(program.commands.find((c) => c.name() === 'check')?.usage()).toBe('[options] <file>')
  })

  it('refuses a number outside its field\'s bounds and a value outside an enum as USAGE', async () => {
    const high = await run(['note', 'add', 'x', '-l', '1.5'])
    expect(codeOf(high.error)).toBe('USAGE')
    expect((high.error as Error).message).toBe('--level must be a number from 0 to 1')
    expect(codeOf((await run(['note', 'add', 'x', '--kind', 'quiet'])).error)).toBe('USAGE')
    expect(codeOf((await run(['note', 'add', 'x', '-l', 'lots'])).error)).toBe('USAGE')
  })

  it('reads a field from a file beside its option, refuses both at once, and refuses a file past the field\'s limit before reading it', async () => {
    const small = join(dir, 'small.txt')
    await writeFile(small, 'from a file')
    expect(inputOf(await run(['note', 'add', 'x', '--body-file', small], { json: true })).body).toBe('from a file')
    const both = await run(['note', 'add', 'x', '-b', 'y', '--body-file', small])
    expect(codeOf(both.error)).toBe('USAGE')
    expect((both.error as Error).message).toBe('give the body with --body or --body-file, not both')
    const big = join(dir, 'big.txt')
    await writeFile(big, 'x'.repeat(17))
    expect(codeOf((await run(['note', 'add', 'x', '--body-file', big])).error)).toBe('RECORD_TOO_LARGE')
    expect(codeOf((await run(['note', 'add', 'x', '--body-file', join(dir, 'missing.txt')])).error)).toBe('IO_ERROR')
  })

  it('reads a positional file as JSON: JSON_INVALID when it is not, RECORD_TOO_LARGE past the limit', async () => {
    const good = join(dir, 'doc.json')
    await writeFile(good, '{"a":1}')
    const result = await run(['check', good])
    expect(JSON.parse(result.stdout.join(''))).toEqual({ a: 1 })
    const bad = join(dir, 'bad.json')
    await writeFile(bad, '{"a":')
    expect(codeOf((await run(['check', bad])).error)).toBe('JSON_INVALID')
    const big = join(dir, 'big.json')
    await writeFile(big, JSON.stringify({ a: 'x'.repeat(64) }))
    expect(codeOf((await run(['check', big])).error)).toBe('RECORD_TOO_LARGE')
  })

  it('prints only the declared output field with --quiet, the rendering without, the output with --json', async () => {
    expect((await run(['note', 'add', 'x', '-q'])).stdout).toEqual(['n1'])
    expect((await run(['note', 'add', 'x'])).stdout[0]).toMatch(/^note n1: /)
    expect(JSON.parse((await run(['note', 'add', 'x', '-q'], { json: true })).stdout.join(''))).toMatchObject({ id: 'n1', valid: true })
  })

  it('writes the output to the -o file and says so on stderr', async () => {
    const file = join(dir, 'out.txt')
    const result = await run(['note', 'add', 'x', '-o', file])
    expect(result.stdout).toEqual([])
    expect(result.stderr).toEqual([`wrote one note to ${file}`])
    expect(await readFile(file, 'utf8')).toMatch(/^note n1: .*\n$/)
  })

  it('exits 1 when the declaration says the output failed, after printing it', async () => {
    const bad = await run(['note', 'add', 'bad'])
    expect(bad.stdout[0]).toMatch(/^note n1/)
    expect(bad.exit).toBe(1)
    expect((await run(['note', 'add', 'good'])).exit).toBe(0)
  })

  it('fills a passphrase field only from the passphrase source, behind its flag', async () => {
    expect(inputOf(await run(['note', 'add', 'x'], { json: true, passphrase: 'pw' })).passphrase).toBeUndefined()
    expect(inputOf(await run(['note', 'add', 'x', '--encrypt'], { json: true, passphrase: 'pw' })).passphrase).toBe('pw')
    expect(codeOf((await run(['note', 'add', 'x', '--encrypt'])).error)).toBe('PASSPHRASE_REQUIRED')
  })

  it('fills a default-key field with the home\'s default key only when it is not given', async () => {
    expect(inputOf(await run(['note', 'add', 'x', '--author', 'did:key:z6MkOther'], { json: true })).author).toBe('did:key:z6MkOther')
  })

  it('refuses a number its field\'s own check refuses at the command line, in the check\'s words', () => {
    const even = z.number().int().refine((n) => n % 2 === 0, 'must be even').optional()
    expect(numberFault(even, 4)).toBeUndefined()
    expect(numberFault(even, 3)).toBe('must be even')
    // .int() alone bounds by the safe integers, which are not named.
    expect(numberFault(even, 2.5)).toBe('must be an integer')
  })

    it('builds a field from options of its own', async () => {
    expect(JSON.parse((await run(['pin', '--shelf', 'top'])).stdout.join(''))).toEqual({ place: { shelf: 'top' } })
    expect(codeOf((await run(['pin'])).error)).toBe('USAGE')
    expect(codeOf((await run(['pin', '--url', 'u', '--shelf', 's'])).error)).toBe('USAGE')
  })

  it('runs a flagged operation on another\'s command, sharing its options and refusing the other\'s', async () => {
    expect((await run(['list', '--limit', '7'])).stdout).toEqual(['list {"limit":7}'])
    expect((await run(['list', '--count', '--words', 'w', '--limit', '2'])).stdout).toEqual(['count 3 {"words":"w","limit":2}'])
    expect((await run(['list', '--count'], { json: true })).stdout).toEqual(['3'])
    const bound = await run(['list', '--count', '--limit', '7'])
    expect((bound.error as Error).message).toBe('--limit must be an integer from 1 to 5')
    expect((await run(['list', '--count', '--since', 'x'])).error).toMatchObject({ code: 'USAGE', message: '--since does not go with --count' })
    expect((await run(['list', '--words', 'w'])).error).toMatchObject({ code: 'USAGE', message: '--words goes with --count' })
    const command = new Command('t')
    registerTableCommands(command, () => { throw new Error('not run') }, () => {}, SPECS)
    const plans = plansOf(command.commands.find((c) => c.name() === 'list') as Command) ?? []
    expect(plans.map((p) => [p.spec.name, p.flag])).toEqual([['list', undefined], ['count', 'count']])
  })
})

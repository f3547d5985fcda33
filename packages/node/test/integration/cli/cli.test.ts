import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BUNDLE_FORMAT, MemoryViewSchema, encodeDidKey, encodeSignature, keyPairFromSeed, recordCidOf, signBytes,
  signRecord, signingInputFor, type MemoryRecord, type MemoryView, type SignedRecord
} from '../../../src/index.js'
import { runIsnad, withTempDir, type CliResult } from './run-cli.js'

const author = keyPairFromSeed(new Uint8Array(32).fill(3))
const authorDid = encodeDidKey(author.publicKey)

function memoryRecord (overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    kind: 'memory',
    version: 1,
    content: { type: 'fact', summary: 'water boils at 100 C at sea level', body: 'measured', tags: ['physics'] },
    author: { agent_id: authorDid },
    created_at: '2026-01-01T00:00:00Z',
    context: { confidence: 0.9 },
    lineage: { derived_from: [] },
    ...overrides
  }
}

/** Signs without schema validation, to build records the schema must refuse. */
function signUnchecked (record: MemoryRecord): SignedRecord {
  return { record, signature: encodeSignature(signBytes(signingInputFor('memory', recordCidOf(record)), author.secretKey)) }
}

function bundleOf (records: unknown[]): string {
  return JSON.stringify({ format: BUNDLE_FORMAT, exported_at: '2026-01-01T00:00:00Z', records })
}

async function snapshot (home: string): Promise<string> {
  const status = await runIsnad(['status', '--json'], { home })
  const all = await runIsnad(['query', '--json', '--limit', '1000'], { home })
  return JSON.stringify([status.json<{ records: unknown }>().records, all.json()])
}

function expectError (result: CliResult, code: string, exit = 1): void {
  expect(result.errorCode(), result.stderr).toBe(code)
  expect(result.code, result.stderr).toBe(exit)
}

describe('isnad CLI', () => {
  it('refuses every command but init before the home exists (NOT_INITIALIZED)', async () => {
    await withTempDir(async (home) => {
      expectError(await runIsnad(['query', '--json'], { home }), 'NOT_INITIALIZED')
      expectError(await runIsnad(['show', 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki', '--json'], { home }), 'NOT_INITIALIZED')
    })
  })

  describe('in an initialized home', () => {
    let home: string
    let memory: MemoryView
    let witness: string

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), 'isnad-cli-'))
      expect((await runIsnad(['init', '--json'], { home })).code).toBe(0)
      witness = (await runIsnad(['id', 'new', '--label', 'bob', '--quiet'], { home })).stdout.trim()
      const remembered = await runIsnad(['remember', 'the build takes 40 s', '--type', 'observation', '--tag', 'ci', '--tag', 'speed', '--json'], { home })
      expect(remembered.code, remembered.stderr).toBe(0)
      memory = MemoryViewSchema.parse(remembered.json())
    })

    afterAll(async () => { await rm(home, { recursive: true, force: true }) })

    it('init is idempotent and keeps the default key', async () => {
      const again = await runIsnad(['init', '--json'], { home })
      expect(again.json<{ created_key: boolean }>().created_key).toBe(false)
      expect((await runIsnad(['id', 'list', '--json'], { home })).json<unknown[]>()).toHaveLength(2)
    })

    it('remember prints the provenance-schema view with trust 0.2999, Unverified (0.4 points: signature + 0.2 × reputation 1; no witness, so held at the top of Unverified)', () => {
      expect(memory.content.tags).toEqual(['ci', 'speed'])
      expect(memory.witnesses).toEqual([])
      // The default policy: the author is the node's own agent, a root (reputation 1), but
      // nobody has witnessed the memory, so the evidence holds it at Unverified.
      expect(memory.trust).toMatchObject({ score: 0.2999, points: 0.4, level: 'Unverified', policy: 'isnad-reputation' })
    })

    it('attest moves trust to 0.5999 Attested (0.6 points) and show lists the witness; a second verdict replaces the first', async () => {
      const confirm = await runIsnad(['attest', memory.id, 'confirm', '--as', witness, '--notes', 'seen', '--json'], { home })
      expect(confirm.code, confirm.stderr).toBe(0)
      const shown = MemoryViewSchema.parse((await runIsnad(['show', memory.id, '--json'], { home })).json())
      expect(shown.witnesses.map((w) => [w.agent_id, w.attestation, w.notes])).toEqual([[witness, 'confirm', 'seen']])
      // + 0.2 × the witness's reputation 1 (bob is an agent of this node too, so a root).
      expect(shown.trust).toMatchObject({ score: 0.5999, points: 0.6, level: 'Attested' })
      const explain = (await runIsnad(['trust', 'explain', memory.id, '--json'], { home })).json<{ factors: { confirm_count: number } }>()
      expect(explain.factors.confirm_count).toBe(1)
      // One vote per witness: bob's newer dispute replaces his confirm (0.2 + 0.2 − 0.15 × 1), then he confirms again.
      await runIsnad(['attest', memory.id, 'dispute', '--as', witness, '--quiet'], { home })
      const disputed = (await runIsnad(['trust', 'explain', memory.id, '--json'], { home })).json<{ score: number, refused: { attestations: Array<{ code: string }> } }>()
      expect(disputed.score).toBe(0.25)
      expect(disputed.refused.attestations.map((a) => a.code)).toEqual(['SUPERSEDED_BY_NEWER'])
      await runIsnad(['attest', memory.id, 'confirm', '--as', witness, '--quiet'], { home })
      expect((await runIsnad(['trust', 'explain', memory.id, '--json'], { home })).json<{ score: number }>().score).toBe(0.5999)
    })

    it('query filters by tag and minimum trust', async () => {
      const hit = (await runIsnad(['query', '--tag', 'ci', '--min-trust', '0.5', '--json'], { home })).json<{ items: Array<{ id: string }> }>()
      expect(hit.items.map((i) => i.id)).toEqual([memory.id])
      const miss = (await runIsnad(['query', '--tag', 'ci', '--min-trust', '0.9', '--json'], { home })).json<{ items: unknown[] }>()
      expect(miss.items).toEqual([])
      expect((await runIsnad(['query', '--tag', 'nope'], { home })).stdout).toContain('no memories match')
    })

    it('verify accepts a view from show and refuses a tampered one (exit 1, with reasons)', async () => {
      const view = (await runIsnad(['show', memory.id, '--json'], { home })).stdout
      const file = join(home, 'view.json')
      await writeFile(file, view)
      const ok = await runIsnad(['verify', file, '--json'])
      expect(ok.code, ok.stdout).toBe(0)
      const parsedView = MemoryViewSchema.parse(JSON.parse(view))
      expect(ok.json<{ valid: boolean, records: unknown[] }>().records).toHaveLength(1 + parsedView.witnesses.length)
      await writeFile(file, view.replace('the build takes 40 s', 'the build takes 4 s'))
      const bad = await runIsnad(['verify', file, '--json'])
      expect(bad.code).toBe(1)
      const report = bad.json<{ valid: boolean, records: Array<{ valid: boolean, code?: string }> }>()
      expect(report.valid).toBe(false)
      expect(report.records.map((r) => r.code)).toContain('SIGNATURE_INVALID')
    })

    it('export then import into another home reproduces the same memory, judged by the other home\'s own roots', async () => {
      const bundle = join(home, 'bundle.json')
      expect((await runIsnad(['export', memory.id, '--out', bundle], { home })).code).toBe(0)
      await withTempDir(async (other) => {
        await runIsnad(['init'], { home: other })
        const imported = await runIsnad(['import', bundle, '--json'], { home: other })
        expect(imported.code, imported.stderr).toBe(0)
        const witnesses = MemoryViewSchema.parse((await runIsnad(['show', memory.id, '--json'], { home })).json()).witnesses
        expect(imported.json<{ stored: string[] }>().stored).toHaveLength(1 + witnesses.length)
        const again = await runIsnad(['import', bundle, '--json'], { home: other })
        expect(again.json<{ stored: string[], duplicates: string[] }>()).toMatchObject({ stored: [], duplicates: expect.any(Array) })
        const a = MemoryViewSchema.parse((await runIsnad(['show', memory.id, '--json'], { home })).json())
        const b = MemoryViewSchema.parse((await runIsnad(['show', memory.id, '--json'], { home: other })).json())
        expect({ ...b, trust: undefined }).toEqual({ ...a, trust: undefined })
        // Trust is the observer's (its roots are its own agents): here the author and bob are roots,
        // there strangers no trust path reaches — the signature alone, and too little to judge.
        expect(a.trust).toMatchObject({ score: 0.5999, level: 'Attested' })
        expect(b.trust).toMatchObject({ score: 0.2, level: 'Unverified' })
        const there = (await runIsnad(['trust', 'explain', memory.id, '--json'], { home: other })).json<{ insufficient?: { code: string } }>()
        expect(there.insufficient?.code).toBe('NO_PATH')
      })
    })

    describe('bad input gets a stable code, a non-zero exit and leaves the store unchanged', () => {
      const future = new Date(Date.now() + 20 * 60 * 1000).toISOString()
      const cases: Array<{ name: string, code: string, exit?: number, files?: Record<string, string>, args: (ctx: { home: string, dir: string, memory: string }) => string[] }> = [
        { name: 'malformed JSON bundle', code: 'JSON_INVALID', files: { 'b.json': '{"format": ' }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'bundle of the wrong format', code: 'BUNDLE_INVALID', files: { 'b.json': '{"format":"zip","records":[]}' }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'record missing a field', code: 'SCHEMA_INVALID', files: { 'b.json': bundleOf([{ record: { kind: 'memory', version: 1 }, signature: 'A'.repeat(86) }]) }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'record with an oversized body', code: 'FIELD_TOO_LARGE', files: { 'b.json': bundleOf([signUnchecked(memoryRecord({ content: { type: 'fact', summary: 's', body: 'x'.repeat(65537), tags: [] } }))]) }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'record with a bad signature', code: 'SIGNATURE_INVALID', files: { 'b.json': bundleOf([{ ...signRecord(memoryRecord(), author.secretKey).signed, record: memoryRecord({ created_at: '2026-01-02T00:00:00Z' }) }]) }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'a good record followed by a bad one (refused whole)', code: 'SIGNATURE_INVALID', files: { 'b.json': bundleOf([signRecord(memoryRecord({ created_at: '2026-01-03T00:00:00Z' }), author.secretKey).signed, { ...signRecord(memoryRecord(), author.secretKey).signed, record: memoryRecord({ created_at: '2026-01-02T00:00:00Z' }) }]) }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'record dated 20 minutes ahead', code: 'TIMESTAMP_IN_FUTURE', files: { 'b.json': bundleOf([signRecord(memoryRecord({ created_at: future }), author.secretKey).signed]) }, args: ({ dir }) => ['import', join(dir, 'b.json')] },
        { name: 'summary over 512 bytes', code: 'FIELD_TOO_LARGE', args: () => ['remember', 'é'.repeat(257)] },
        { name: 'tag with whitespace', code: 'SCHEMA_INVALID', args: () => ['remember', 'x', '--tag', 'two words'] },
        { name: 'signing with an unknown key', code: 'UNKNOWN_KEY', args: () => ['remember', 'x', '--as', authorDid] },
        { name: 'signing with a malformed did', code: 'DID_INVALID', args: () => ['remember', 'x', '--as', 'did:key:zNope'] },
        { name: 'attesting an unknown memory', code: 'NOT_FOUND', args: () => ['attest', 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki', 'confirm'] },
        { name: 'the author attesting itself', code: 'SELF_ATTESTATION', args: ({ memory }) => ['attest', memory, 'confirm'] },
        { name: 'superseding an unknown memory', code: 'NOT_FOUND', args: () => ['remember', 'x', '--supersedes', 'bafyreigeuaqg4arao66zdeisdv3amxwpjpdeuy4plrhiti66hcrungztki'] },
        { name: 'an unknown verdict', code: 'USAGE', exit: 2, args: ({ memory }) => ['attest', memory, 'maybe'] },
        { name: 'a confidence outside [0, 1]', code: 'USAGE', exit: 2, args: () => ['remember', 'x', '--confidence', '1.5'] }
      ]
      for (const c of cases) {
        it(c.name, async () => {
          const dir = home
          for (const [name, content] of Object.entries(c.files ?? {})) await writeFile(join(dir, name), content)
          const before = await snapshot(home)
          const result = await runIsnad([...c.args({ home, dir, memory: memory.id }), '--json'], { home })
          if (c.code === 'USAGE') expect(result.code, result.stderr).toBe(2)
          else expectError(result, c.code, c.exit)
          expect(await snapshot(home)).toBe(before)
        })
      }
    })
  })
})

describe('encrypted keys', () => {
  it('need the passphrase: missing → PASSPHRASE_REQUIRED, wrong → PASSPHRASE_WRONG, right → signs', async () => {
    await withTempDir(async (home) => {
      const env = { ISNAD_PASSPHRASE: 'correct horse battery staple' }
      expect((await runIsnad(['init', '--encrypt', '--json'], { home, env })).code).toBe(0)
      expectError(await runIsnad(['remember', 'secret thought', '--json'], { home }), 'PASSPHRASE_REQUIRED')
      expectError(await runIsnad(['remember', 'secret thought', '--json'], { home, env: { ISNAD_PASSPHRASE: 'wrong' } }), 'PASSPHRASE_WRONG')
      const file = join(home, 'pass')
      await writeFile(file, 'correct horse battery staple\n')
      const ok = await runIsnad(['remember', 'secret thought', '--passphrase-file', file, '--quiet'], { home })
      expect(ok.code, ok.stderr).toBe(0)
      expect(ok.stdout.trim()).toMatch(/^bafyrei/)
      const keyFiles = (await runIsnad(['id', 'show', '--json'], { home })).json<{ file: string, encrypted: boolean }>()
      expect(keyFiles.encrypted).toBe(true)
      expect(await readFile(keyFiles.file, 'utf8')).not.toContain('correct horse')
    })
  })
})

import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  buildMetaFiles, META_FILE_NAMES, metaFileText, readPolicy, writeMetaFiles
} from '../../../src/ledger/meta/index.js'
import { hashLine, reduceMemory, withHash } from '../../../src/ledger/object-views/index.js'
import { EVIDENCE, inputOf, memoryOf } from '../../unit/object-views/fixtures.js'
import { checkJsonSchema } from './json-schema-check.js'

/** `_meta/` on disk (spec §3): written from the code's contracts, only when changed, read back strictly. */

let dataDir: string
beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'isnad-meta-')) })
afterEach(async () => { await rm(dataDir, { recursive: true, force: true }) })

const readMeta = async (name: string): Promise<string> => await readFile(join(dataDir, '_meta', name), 'utf8')

describe('writeMetaFiles', () => {
  it('writes the four files; what is on disk is exactly what the code generates (round trip)', async () => {
    expect(await writeMetaFiles(dataDir, { scope: 'proj' })).toEqual({ written: [...META_FILE_NAMES], unchanged: [] })
    const generated = buildMetaFiles({ scope: 'proj' })
    for (const name of META_FILE_NAMES) {
      const text = await readMeta(name)
      expect(text, name).toBe(metaFileText(generated[name]))
      expect(JSON.parse(text), name).toEqual(generated[name])
    }
  })

  it('leaves unchanged files alone and rewrites a changed or damaged one', async () => {
    await writeMetaFiles(dataDir)
    const before = await stat(join(dataDir, '_meta', 'spec.json'))
    expect(await writeMetaFiles(dataDir)).toEqual({ written: [], unchanged: [...META_FILE_NAMES] })
    expect((await stat(join(dataDir, '_meta', 'spec.json'))).mtimeMs).toBe(before.mtimeMs)

    await writeFile(join(dataDir, '_meta', 'object_schema.json'), '{"stale": true}\n')
    expect((await writeMetaFiles(dataDir)).written).toEqual(['object_schema.json'])
    expect(JSON.parse(await readMeta('object_schema.json'))).toEqual(buildMetaFiles()['object_schema.json'])

    expect((await writeMetaFiles(dataDir, { policy: { archive_after_days: 10 } })).written).toEqual(['policy.json'])
    expect((await readPolicy(dataDir)).archive_after_days).toBe(10)
  })

  it('leaves no temporary files behind', async () => {
    await writeMetaFiles(dataDir)
    expect((await readdir(join(dataDir, '_meta'))).sort()).toEqual([...META_FILE_NAMES].sort())
  })
})

describe('readPolicy', () => {
  it('reads what writeMetaFiles wrote', async () => {
    await writeMetaFiles(dataDir, { scope: 'proj' })
    expect(await readPolicy(dataDir)).toEqual(buildMetaFiles({ scope: 'proj' })['policy.json'])
  })

  it.each([
    ['missing', undefined, 'NOT_INITIALIZED'],
    ['not JSON', '{"format": ', 'JSON_INVALID'],
    ['not a policy', '{"format": "isnad-policy/v1"}', 'SCHEMA_INVALID'],
    ['an unknown field', JSON.stringify({ ...buildMetaFiles()['policy.json'], extra: 1 }), 'SCHEMA_INVALID'],
    ['an archive age of 0', JSON.stringify({ ...buildMetaFiles()['policy.json'], archive_after_days: 0 }), 'SCHEMA_INVALID']
  ])('%s → %s, naming the file', async (_name, text, code) => {
    if (text !== undefined) {
      await writeMetaFiles(dataDir)
      await writeFile(join(dataDir, '_meta', 'policy.json'), text)
    }
    const err: unknown = await readPolicy(dataDir).catch((e: unknown) => e)
    expect(err).toMatchObject({ name: 'IsnadError', code, details: { file: '_meta/policy.json' } })
    expect((err as Error).message).toContain('_meta/policy.json')
  })
})

describe('the published schemas accept what isnad writes', () => {
  it('object_schema.json accepts reduced objects and refuses a broken one', async () => {
    await writeMetaFiles(dataDir)
    const schema = JSON.parse(await readMeta('object_schema.json')) as Record<string, unknown>
    for (const type of ['insight', 'decision', 'commitment', 'correction'] as const) {
      const memory = memoryOf({ type, summary: `a ${type}`, body: 'b', tags: ['project:p', 'assume:a', 'due:2026-03-01', 'key:k'] })
      const { object } = reduceMemory(inputOf(memory, { evidence: EVIDENCE }))
      expect(checkJsonSchema(schema, object), type).toEqual([])
    }
    const { object } = reduceMemory(inputOf(memoryOf()))
    expect(checkJsonSchema(schema, { ...object, status: 'gone', extra: 1 })).toHaveLength(2)
  })

  it('event_schema.json accepts a memory.reduced event', async () => {
    await writeMetaFiles(dataDir)
    const schema = JSON.parse(await readMeta('event_schema.json')) as Record<string, unknown>
    const event = withHash({
      schema_version: 'diasync-v1-event', event_id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa', type: 'memory.reduced', scope: 'default',
      instance_id: 'ins_aaaaaaaaaaaaaaaaaaaaaaaaaa', run_id: 'run_aaaaaaaaaaaaaaaaaaaaaaaaaa', actor: 'node', ts_wall: '2026-02-05T16:00:00Z',
      lc: 1, causal_refs: [], visibility: 'shared', owner: 'node', payload: { reducer: 'isnad-views/v1' }, idempotency_key: 'k'
    }, hashLine)
    expect(checkJsonSchema(schema, event)).toEqual([])
    expect(checkJsonSchema(schema, { ...event, lc: 0 })).toHaveLength(1)
  })
})

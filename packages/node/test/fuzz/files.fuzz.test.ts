import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeCryptoVerifier } from '../../src/fast-crypto/index.js'
import { Keyring, applyKeyEvents, decodeKeyLog, encodeKeyLog, parseKeyLog, type SignedKeyEvent } from '../../src/key-events/index.js'
import { parseKeyFile } from '../../src/keystore/keyfile.js'
import { buildEvent, validateEventLine, withLineHash } from '../../src/ledger/index.js'
import { encodeSignedRecord } from '../../src/record/index.js'
import { verifyDocument } from '../../src/memory-view/index.js'
import { parseBundle } from '../../src/cli/option-parsers.js'
import { BUNDLE_FORMAT } from '../../src/schema/index.js'
import { NOW, VALID } from '../unit/record/fixtures.js'
import { KEY_NOW, KEY_VECTORS } from '../unit/key-events/vectors.js'
import { HOSTILE_CBOR, fuzzParams, mutateAt, mutation, refuses, sameBytes, stringPaths, textMutation } from './fuzz.js'

/** Files and documents a node reads: key files, ledger lines, bundles and views, key logs. */

describe('fuzz: key files (keys/*.json)', () => {
  it('random text is refused with KEYFILE_INVALID, and the message never quotes the input', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.json({ maxDepth: 3 })), (text) => {
      try {
        parseKeyFile(text, 'k.json')
      } catch (err) {
        expect(err).toHaveProperty('code', 'KEYFILE_INVALID')
        // A key file holds a seed: an error must never echo what it read.
        if (text.length >= 12) expect((err as Error).message).not.toContain(text)
      }
    }), fuzzParams(300))
  })
})

describe('fuzz: ledger lines', () => {
  const context = { scope: 'default', instanceId: `ins_${'a'.repeat(26)}`, runId: `run_${'b'.repeat(26)}`, tsWall: '2026-02-06T10:00:00.000Z' }
  const { line } = buildEvent({ type: 'memory.captured', actor: 'node', owner: 'did:key:z6Mk', payload: { cid: 'bafy1' }, idempotency_key: 'k1' }, context, 5, 0)

  it('random text never throws and is never valid', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => {
      expect(validateEventLine(text).ok).toBe(false)
    }), fuzzParams(300))
  })

  it('a changed character in a valid line makes it invalid (its hash covers every field)', () => {
    expect(validateEventLine(line).ok).toBe(true)
    fc.assert(fc.property(textMutation, (mutate) => {
      const changed = mutate(line)
      if (changed === line) return
      const check = validateEventLine(changed)
      // A change inside insignificant JSON whitespace is impossible: the line has none.
      expect(check.ok).toBe(false)
    }), fuzzParams(300))
  })
})

describe('fuzz: bundles and memory views (record-v1 §6, §7)', () => {
  const bundle = { format: BUNDLE_FORMAT, exported_at: VALID.now, records: VALID.vectors.slice(0, 4).map((v) => v.signed) }
  const options = { verifier: nodeCryptoVerifier, now: NOW }

  it('random JSON is refused by parseBundle and verifyDocument with an IsnadError, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
      const text = JSON.stringify(value) ?? 'null'
      try { parseBundle(text) } catch (err) { expect(err).toHaveProperty('code') }
      try { verifyDocument(value, options) } catch (err) { expect(err).toHaveProperty('code') }
    }), fuzzParams(300))
  })

  it('a changed character in any string of a bundle is refused or reported invalid, never valid', () => {
    expect(verifyDocument(bundle, options).valid).toBe(true)
    fc.assert(fc.property(fc.nat(), textMutation, (pick, mutate) => {
      const paths = stringPaths(bundle.records)
      const path = ['records', ...(paths[pick % paths.length] as Array<string | number>)]
      const changed = mutateAt(bundle, path, (v) => mutate(v as string))
      if (JSON.stringify(changed) === JSON.stringify(bundle)) return
      try {
        expect(verifyDocument(changed, options).valid).toBe(false)
      } catch (err) {
        expect(err).toHaveProperty('code')
      }
    }), fuzzParams(200))
  })
})

describe('fuzz: key logs (record-v1 §13)', () => {
  const events = KEY_VECTORS.logs[0]?.events ?? []
  const bytes = encodeKeyLog({ events })
  const options = { verifier: nodeCryptoVerifier, now: KEY_NOW }

  it('random bytes and hostile CBOR are refused by decodeKeyLog', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (data) => {
      expect(refuses(() => decodeKeyLog(data))).toBe(true)
    }), fuzzParams(300))
    for (const { name, bytes: hostile } of HOSTILE_CBOR) expect(refuses(() => decodeKeyLog(hostile)), name).toBe(true)
  })

  it('a mutated key log is never accepted as a valid log', () => {
    fc.assert(fc.property(mutation, (mutate) => {
      const mutated = mutate(bytes)
      if (sameBytes(mutated, bytes)) return
      expect(refuses(() => applyKeyEvents(undefined, decodeKeyLog(mutated).events, options))).toBe(true)
    }), fuzzParams(200))
  })

  it('a changed character in any string of any event (dids, digests, CIDs, signatures, times) is never accepted', () => {
    fc.assert(fc.property(fc.nat(), textMutation, (pick, mutate) => {
      const paths = stringPaths(events)
      const path = paths[pick % paths.length] as Array<string | number>
      const changed = mutateAt(events, path, (v) => mutate(v as string)) as SignedKeyEvent[]
      if (JSON.stringify(changed) === JSON.stringify(events)) return
      expect(refuses(() => applyKeyEvents(undefined, parseKeyLog({ events: changed }).events, options)), path.join('.')).toBe(true)
    }), fuzzParams(300))
  })

  it('a keyring ledger full of garbage lines opens, keeping only the valid events', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isnad-keyring-fuzz-'))
    try {
      const file = join(dir, 'key-events.jsonl')
      const good = events.map((event, i) => JSON.stringify(withLineHash({ id: KEY_VECTORS.logs[0]?.ids[i] as string, event })))
      const junk = fc.sample(fc.string({ maxLength: 80 }), { numRuns: 50, seed: 9 }).map((s) => s.replace(/\n/g, ' '))
      const tampered = JSON.stringify({ ...JSON.parse(good[1] as string), id: 'forged' })
      await writeFile(file, [good[0], ...junk.slice(0, 25), tampered, ...junk.slice(25), ...good.slice(1)].join('\n') + '\n')
      const keyring = await Keyring.open({ file, verifier: nodeCryptoVerifier, clock: () => KEY_NOW, readOnly: true })
      expect(keyring.stateOf(events[0]?.record.identity as string)?.events).toHaveLength(events.length)
      await keyring.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('fuzz: record bytes inside documents', () => {
  it('the canonical bytes of every valid vector survive a round trip (the mutations above start from them)', () => {
    for (const v of VALID.vectors) expect(encodeSignedRecord(v.signed).length).toBeGreaterThan(100)
  })
})

import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hashLine as ledgerHashLine } from '../../../src/ledger/index.js'
import {
  AnyAttachmentSchema, AnyReductionRecordSchema, AttachmentSchema, AttachmentV1Schema, attachmentIdOf, buildReductionRound, deriveTypedId, isLineHashValid,
  objectIdOf, reduceMemory, reducedEventsOf, reductionIdOf, roundEntryOf, type HashLine
} from '../../../src/ledger/object-views/index.js'
import { reduceInput } from './arbitraries.js'
import { EVIDENCE, inputOf, memoryOf } from './fixtures.js'

/**
 * Golden values: what the reducer writes is on disk and in the ledger (ids, lines, hashes, the
 * `memory.reduced` event), so a faster implementation must give these exact bytes. Computed with
 * the first views code; a change here is a change of the format, not a refactor. The compact
 * reducer line and the per-round event (docs/views.md) changed the last two lines of a
 * reduction, the compact attachment (isnad-attach-v2) the second, the round line
 * (isnad-reduction-v3) the third again; the object lines are those of the first views code
 * (GOLDEN.objectDigest).
 */

const DECISION = memoryOf({ type: 'decision', summary: 'Chose JSONL', body: 'greppable', tags: ['key:store', 'project:isnad', 'due:2026-03-01'] })

describe('derived ids: golden values', () => {
  it('deriveTypedId and the ids built on it', () => {
    expect(deriveTypedId('fac', ['a', 'b'])).toBe(GOLDEN.typedId)
    expect(deriveTypedId('fac', ['é', '𝄞'])).toBe(GOLDEN.typedIdUnicode)
    const object = objectIdOf('decision', DECISION.id)
    expect(object).toBe(GOLDEN.objectId)
    expect(attachmentIdOf(object)).toBe(GOLDEN.attachmentId)
    expect(reductionIdOf(object, 'sha256:' + '1'.repeat(64), undefined, undefined)).toBe(GOLDEN.reductionId)
    expect(reductionIdOf(object, 'sha256:' + '1'.repeat(64), 'sha256:' + '2'.repeat(64), GOLDEN.reductionId)).toBe(GOLDEN.reductionIdChained)
  })
})

/** Every line and event one reduction produces, as the node writes them. */
function linesOf (input: Parameters<typeof reduceMemory>[0], hash?: HashLine): string[] {
  const reduction = reduceMemory(input, hash === undefined ? {} : { hashLine: hash })
  const entry = roundEntryOf(reduction)
  return [
    JSON.stringify(reduction.object),
    JSON.stringify(reduction.attachment),
    JSON.stringify(buildReductionRound([entry], '2026-11-22T00:00:00.000Z', hash)),
    JSON.stringify(reducedEventsOf([entry.reduction], reduction.object.event_refs))
  ]
}

describe('reductions: golden lines', () => {
  it('a decision with evidence: object, attachment, reducer line and event, byte for byte', () => {
    const input = inputOf(DECISION, { evidence: EVIDENCE, supersededBy: [] })
    expect(linesOf(input)).toEqual(GOLDEN.decisionLines)
    expect(linesOf(input, ledgerHashLine)).toEqual(GOLDEN.decisionLines)
  })

  // The inputs come from fast-check's generator: a new fast-check version may draw others, and
  // then the digest is recomputed with the code of the commit before (not with the code under test).
  it('300 arbitrary inputs (fixed seed) digest to the same bytes, with either line hash', () => {
    const inputs = fc.sample(reduceInput, { seed: 20261122, numRuns: 300 })
    const digest = (hash?: HashLine): string => {
      const sha = createHash('sha256')
      for (const input of inputs) {
        try {
          for (const line of linesOf(input, hash)) sha.update(line + '\n')
        } catch (err) {
          sha.update(`error ${(err as { code?: string }).code ?? String(err)}\n`)
        }
      }
      return sha.digest('hex')
    }
    expect(digest()).toBe(GOLDEN.arbitraryDigest)
    expect(digest(ledgerHashLine)).toBe(GOLDEN.arbitraryDigest)
    // The object lines alone: unchanged since the first views code by the compact attachment, reducer line and round events.
    const objects = createHash('sha256')
    for (const input of inputs) {
      try {
        objects.update(`${linesOf(input)[0] ?? ''}\n`)
      } catch (err) {
        objects.update(`error ${(err as { code?: string }).code ?? String(err)}\n`)
      }
    }
    expect(objects.digest('hex')).toBe(GOLDEN.objectDigest)
  })

  it('reducer lines of the per-state forms (isnad-reduction-v1, -v2) still parse and verify: every form is read forever', () => {
    const v1 = JSON.parse(GOLDEN.v1ReducerLine) as Record<string, unknown>
    const v2 = JSON.parse(GOLDEN.v2ReducerLine) as Record<string, unknown>
    for (const line of [v1, v2]) {
      expect(AnyReductionRecordSchema.safeParse(line).success).toBe(true)
      expect(isLineHashValid(line)).toBe(true)
      expect(AnyReductionRecordSchema.safeParse({ ...line, schema_version: 'isnad-reduction-v3' }).success, 'old fields under the round name').toBe(false)
    }
    expect(AnyReductionRecordSchema.safeParse({ ...v1, schema_version: 'isnad-reduction-v2' }).success, 'v1 fields under the v2 name').toBe(false)
    // Their ids follow the rule the round lines name states by (reductionIdOf), so a writer reads
    // every form into one chain of states.
    expect(v2.id).toBe(reductionIdOf(v2.object as string, v2.object_hash as string, v2.attachment_hash as string, undefined))
  })

  it('an attachment line of the first form (isnad-attach-v1) still parses and verifies: both forms are read forever', () => {
    const line = JSON.parse(GOLDEN.v1AttachLine) as Record<string, unknown>
    expect(AnyAttachmentSchema.safeParse(line).success).toBe(true)
    expect(AttachmentV1Schema.safeParse(line).success).toBe(true)
    expect(isLineHashValid(line)).toBe(true)
    expect(AnyAttachmentSchema.safeParse({ ...line, schema_version: 'isnad-attach-v2' }).success, 'v1 fields under the v2 name').toBe(false)
    // The compact line of the same evidence says the same: the same CIDs, verdicts and anchor.
    const compact = JSON.parse(GOLDEN.decisionLines[1] ?? '') as Record<string, unknown>
    expect(AttachmentSchema.safeParse(compact).success).toBe(true)
    const v1 = AttachmentV1Schema.parse(line)
    expect(compact.attestations).toEqual(Object.fromEntries(v1.attestations.map((a) => [a.id, a.verdict])))
    expect(compact.anchors).toEqual(Object.fromEntries(v1.anchors.map(({ id, ...anchor }) => [id, anchor])))
    expect([compact.id, compact.trust]).toEqual([v1.id, v1.trust])
  })
})

const GOLDEN = {
  typedId: 'fac_dspt3iuwfwrijdxuat2s5o2xq4',
  typedIdUnicode: 'fac_lc2ouayaigoqfr2gswuv5z6rgu',
  objectId: 'dec_2zroqno46mwlkqocw446z56ksa',
  attachmentId: 'att_3xzrcj6g4dtesdt6a242gjkobq',
  reductionId: 'red_mnb4r4f7alxswm3va7znhmyq4a',
  reductionIdChained: 'red_bbhlpjj3ln3u2vsikkhpgybv2u',
  decisionLines: [
    '{"schema_version":"diasync-v1-object","id":"dec_2zroqno46mwlkqocw446z56ksa","type":"decision","scope":"default","ts":"2026-02-05T16:00:00Z","summary":"Chose JSONL","status":"active","horizon":"long","salience":0.6,"confidence":0.8,"tags":["key:store","project:isnad","due:2026-03-01"],"project":"isnad","source":"bafyreibe7pbw5lp4nddlo3da2frlvflfibpkqjs2butwkxq2mfvob5ywiu","evidence_ref":"att_3xzrcj6g4dtesdt6a242gjkobq","decision_key":"store","why":"greppable","event_refs":["evt_aaaaaaaaaaaaaaaaaaaaaaaaaa"],"visibility":"shared","owner":"did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK","hash":"sha256:85042114b96972cba120e7bbd38cbaf883ad6de5ed02d89fa5a3f87b4d9763cf"}',
    '{"schema_version":"isnad-attach-v2","id":"att_3xzrcj6g4dtesdt6a242gjkobq","attestations":{"bafyreia2n4jc7tykbyw767cqnxkas5lb7wsvv4wmynsch7myxvkin6sxvu":"confirm","bafyreihnpfg2nxqr37ixrowc2jwacq3vtjhskvoge2qycmexh5artobtja":"partial"},"anchors":{"bafyreicwjzy7q5ibb5ewub6hd56nujre5364kdrmskipjmq22lxd7kltnm":{"type":"url","reference":"https://example.org/evidence","hash":"sha2-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","state":"unchecked"}},"trust":{"score":0.5,"level":"Attested"},"hash":"sha256:146af25235f31ecf14cca982fd486be3546ae9e46902a03c87c83669b0634acf"}',
    '{"schema_version":"isnad-reduction-v3","ts":"2026-11-22T00:00:00.000Z","reductions":{"views/decisions/default/2026-02.jsonl":{"dec_2zroqno46mwlkqocw446z56ksa":"red_ve6jgoajohl655lxv5uvywsnoq"}},"hash":"sha256:95dbaa4971b0bd0cb4e069910e9d018a304a61bd39fd82a9d6899c9a29a1a7a2"}',
    '[{"type":"memory.reduced","idempotency_key":"memory.reduced:805354f04d6d35507dab1528dae8fa6f6e5f225e5e63e5fe32d319cff2a95dbd","causal_refs":["evt_aaaaaaaaaaaaaaaaaaaaaaaaaa"],"payload":{"reducer":"isnad-views/v1","reductions":["red_ve6jgoajohl655lxv5uvywsnoq"]}}]'
  ],
  arbitraryDigest: 'de981608550f4546d3c7831123eaefc1edae39e7ab78b98b130ab8681e8b6375',
  objectDigest: '420ed385f367124349194981f5e8d53460eab58288e880c080145e388ab83d13',
  /** Written by the code of the first compaction (before the round form), for the decision above with its v1 attachment. */
  v2ReducerLine: '{"schema_version":"isnad-reduction-v2","id":"red_aujgdgukg53t5qgywokeyop4ma","object":"dec_2zroqno46mwlkqocw446z56ksa","object_hash":"sha256:85042114b96972cba120e7bbd38cbaf883ad6de5ed02d89fa5a3f87b4d9763cf","shard":"views/decisions/default/2026-02.jsonl","attachment_hash":"sha256:4587f0eb4963940de4916968fb948f818d516d7cf6f4a55c6d4140d33d2f231d","ts":"2026-11-22T00:00:00.000Z","hash":"sha256:94c6e62dc381e7a6fbba1e8eb83b2bb1951ac2de1c1b00173ae1854b1ac78eea"}',
  /** Written by the first views code (before the compact form), for the decision above. */
  v1AttachLine: '{"schema_version":"isnad-attach-v1","id":"att_3xzrcj6g4dtesdt6a242gjkobq","object":"dec_2zroqno46mwlkqocw446z56ksa","scope":"default","ts":"2026-02-05T16:00:00Z","memory":"bafyreibe7pbw5lp4nddlo3da2frlvflfibpkqjs2butwkxq2mfvob5ywiu","anchors":[{"id":"bafyreicwjzy7q5ibb5ewub6hd56nujre5364kdrmskipjmq22lxd7kltnm","type":"url","reference":"https://example.org/evidence","hash":"sha2-256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","state":"unchecked"}],"attestations":[{"id":"bafyreia2n4jc7tykbyw767cqnxkas5lb7wsvv4wmynsch7myxvkin6sxvu","verdict":"confirm","witness":"did:key:z6MkjchhfUsD6mmvni8mCdXHw216Xrm9bQe2mBH1P5RDjVJG"},{"id":"bafyreihnpfg2nxqr37ixrowc2jwacq3vtjhskvoge2qycmexh5artobtja","verdict":"partial"}],"trust":{"score":0.5,"level":"Attested"},"hash":"sha256:4587f0eb4963940de4916968fb948f818d516d7cf6f4a55c6d4140d33d2f231d"}',
  v1ReducerLine: '{"schema_version":"isnad-reduction-v1","id":"red_aujgdgukg53t5qgywokeyop4ma","reducer":"isnad-views/v1","memory":"bafyreibe7pbw5lp4nddlo3da2frlvflfibpkqjs2butwkxq2mfvob5ywiu","object":"dec_2zroqno46mwlkqocw446z56ksa","object_type":"decision","object_hash":"sha256:85042114b96972cba120e7bbd38cbaf883ad6de5ed02d89fa5a3f87b4d9763cf","shard":"views/decisions/default/2026-02.jsonl","attachment":"att_3xzrcj6g4dtesdt6a242gjkobq","attachment_hash":"sha256:4587f0eb4963940de4916968fb948f818d516d7cf6f4a55c6d4140d33d2f231d","attachment_shard":"views/attach/default/2026-02.jsonl","ts":"2026-11-22T00:00:00.000Z","hash":"sha256:6f8fd0a1ffb6568f5c235d4c545a0b59946a25f225254028df69b874e1a91df0"}'
}

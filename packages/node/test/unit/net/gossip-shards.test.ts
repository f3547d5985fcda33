import { describe, expect, it } from 'vitest'
import { createCheckpoint, hashLeaf, signCheckpoint } from '../../../src/merkle/index.js'
import { GossipValidator, RecordGate, encodeWitnessEnvelope } from '../../../src/net/index.js'
import { encodeCanonical, encodeSignedRecord as bytes } from '../../../src/record/index.js'
import { shardOf, shardTopic } from '../../../src/shard/index.js'
import { createAgent, createAnchor, createAttestation, createMemory, createWitnessRequest, type TestAgent } from '../../fixtures/records.js'
import { CountingVerifier } from '../../integration/net/fixtures/counting-verifier.js'
import { MemoryHost } from '../../integration/net/fixtures/memory-host.js'
import { verified } from '../../integration/net/fixtures/harness.js'

const NOW = Date.parse('2026-02-06T00:00:00Z')
const COUNT = 4

function setup (): { validator: GossipValidator, host: MemoryHost } {
  const host = new MemoryHost()
  const verifier = new CountingVerifier()
  const validator = new GossipValidator({
    gate: new RecordGate({ host, verifier, clock: () => NOW }),
    host,
    verifier,
    clock: () => NOW
  })
  return { validator, host }
}

/** Agents numbered from `from` until one lands in a shard under COUNT other than `not`'s. */
function agentOutside (shard: number, from = 10): TestAgent {
  for (let n = from; ; n++) if (shardOf(createAgent(n).did, COUNT) !== shard) return createAgent(n)
}

describe('gossip validators on shard topics (gossip-v1 "Shards", R15–R16)', () => {
  const author = createAgent(1)
  const home = shardOf(author.did, COUNT)
  const other = (home + 1) % COUNT
  const memory = createMemory(author)

  it('accepts a memory on its author\'s shard and rejects it on another (R15)', async () => {
    const { validator } = setup()
    expect(await validator.validate(shardTopic(COUNT, home, 'memories'), bytes(memory.signed), 'p')).toMatchObject({ result: 'accept' })
    expect(await validator.validate(shardTopic(COUNT, other, 'memories'), bytes(memory.signed), 'p')).toMatchObject({ result: 'reject', reason: expect.stringMatching(/travels on its shard/) })
    // Under count 1 every memory is on the one shard.
    expect(await setup().validator.validate(shardTopic(1, 0, 'memories'), bytes(memory.signed), 'p')).toMatchObject({ result: 'accept' })
  })

  it('judges the same authors alike under every count, in any order (the shard each DID hashes to is remembered)', async () => {
    const { validator } = setup()
    const authors = [1, 2, 3, 4, 5].map((n) => createAgent(n))
    const memories = authors.map((agent) => createMemory(agent))
    for (const count of [8, 2, 4096, 4, 2]) {
      for (const [i, agent] of authors.entries()) {
        const right = shardOf(agent.did, count)
        const message = bytes((memories[i] as ReturnType<typeof createMemory>).signed)
        expect(await validator.validate(shardTopic(count, right, 'memories'), message, 'p'), `agent ${i} under ${count}`).toMatchObject({ result: 'accept' })
        expect(await validator.validate(shardTopic(count, (right + 1) % count, 'memories'), message, 'p'), `agent ${i} under ${count}`).toMatchObject({ result: 'reject' })
      }
    }
  })

  it('accepts a witness request on its author\'s shard or an addressed witness\'s, and rejects it elsewhere', async () => {
    const witness = agentOutside(home)
    const request = createWitnessRequest(author, memory.id, [witness])
    const envelope = encodeWitnessEnvelope(bytes(request.signed), bytes(memory.signed))
    expect(await setup().validator.validate(shardTopic(COUNT, home, 'witness-requests'), envelope, 'p')).toMatchObject({ result: 'accept' })
    expect(await setup().validator.validate(shardTopic(COUNT, shardOf(witness.did, COUNT), 'witness-requests'), envelope, 'p')).toMatchObject({ result: 'accept' })
    const neither = [0, 1, 2, 3].find((s) => s !== home && s !== shardOf(witness.did, COUNT))!
    expect(await setup().validator.validate(shardTopic(COUNT, neither, 'witness-requests'), envelope, 'p')).toMatchObject({ result: 'reject' })
    // The memory already stored: its author comes from the store.
    const stored = setup()
    stored.host.putLocal(verified(memory.signed))
    expect(await stored.validator.validate(shardTopic(COUNT, neither, 'witness-requests'), envelope, 'p')).toMatchObject({ result: 'reject' })
  })

  it('ignores an attestation or anchor on a shard that is not its memory\'s author\'s, accepts it on the right one (R16)', async () => {
    const { validator, host } = setup()
    host.putLocal(verified(memory.signed))
    const attestation = createAttestation(agentOutside(home), memory.id)
    const anchor = createAnchor(author, memory.id)
    expect(await validator.validate(shardTopic(COUNT, other, 'attestations'), bytes(attestation.signed), 'p')).toMatchObject({ result: 'ignore' })
    expect(await validator.validate(shardTopic(COUNT, other, 'anchors'), bytes(anchor.signed), 'p')).toMatchObject({ result: 'ignore' })
    expect(await validator.validate(shardTopic(COUNT, home, 'attestations'), bytes(attestation.signed), 'p')).toMatchObject({ result: 'accept' })
    expect(await validator.validate(shardTopic(COUNT, home, 'anchors'), bytes(anchor.signed), 'p')).toMatchObject({ result: 'accept' })
    // A memory this node holds nowhere: nothing to judge by, accepted and named missing (R10).
    const unknownMemory = createMemory(createAgent(2)).id
    const unknown = createAttestation(agentOutside(home), unknownMemory)
    expect(await setup().validator.validate(shardTopic(COUNT, other, 'attestations'), bytes(unknown.signed), 'p')).toMatchObject({ result: 'accept', missingMemory: unknownMemory })
  })

  it('rejects a checkpoint on a shard that is not its log\'s', async () => {
    const signer = createAgent(3)
    const checkpoint = signCheckpoint(createCheckpoint({ log: signer.did, size: 1, root: hashLeaf(Uint8Array.of(1)), createdAt: '2026-02-05T23:59:00Z' }), signer.secretKey).signed
    const shard = shardOf(signer.did, COUNT)
    expect(await setup().validator.validate(shardTopic(COUNT, shard, 'checkpoints'), encodeCanonical(checkpoint), 'p')).toMatchObject({ result: 'accept' })
    expect(await setup().validator.validate(shardTopic(COUNT, (shard + 1) % COUNT, 'checkpoints'), encodeCanonical(checkpoint), 'p')).toMatchObject({ result: 'reject' })
  })

  it('rejects a topic that names no shard', async () => {
    expect(await setup().validator.validate('isnad/v1/shards/3/0/memories', bytes(memory.signed), 'p')).toMatchObject({ result: 'reject', reason: expect.stringMatching(/unknown topic/) })
  })
})

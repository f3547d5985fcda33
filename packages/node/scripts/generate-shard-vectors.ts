/**
 * Generates protocols/vectors/shard/shards.json: the shards of the record vectors' agents
 * (protocols/vectors/records/valid.json `keys`) and of a few other dids under several shard counts,
 * and the shard count for a few network sizes (protocols/gossip-v1.md, "Shards").
 *
 *   node scripts/generate-shard-vectors.ts           write the file
 *   node scripts/generate-shard-vectors.ts --check   exit 1 if the committed file differs
 *
 * Independent of src/: the rules are written out again from the spec on node:crypto, so the tests
 * compare src/shard with data it did not produce. Imports only Node built-ins, so Node runs it with
 * type stripping.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'

// Run from scripts/ with type stripping, or from dist/scripts/ after `npm run build`.
const ROOT = new URL(import.meta.url.includes('/dist/scripts/') ? '../../' : '../', import.meta.url)
const OUTPUT = new URL('protocols/vectors/shard/shards.json', ROOT)
const RECORDS = new URL('protocols/vectors/records/valid.json', ROOT)
const COUNTS = [1, 2, 4, 64, 1024, 4096]
const AGENTS_PER_SHARD = 80
const MAX_COUNT = 4096
const POPULATIONS = [0, 1, 159, 160, 300, 319, 320, 1000, 3000, 10000, 30000, 100000, 1000000]

function shardOf (did: string, count: number): number {
  const digest = createHash('sha256').update('isnad/shard/v1\0', 'utf8').update(did, 'utf8').digest()
  return digest.readUInt32BE(0) % count
}

function shardCountFor (population: number): number {
  let count = 1
  while (count * 2 <= MAX_COUNT && count * 2 * AGENTS_PER_SHARD <= population) count *= 2
  return count
}

const records = JSON.parse(readFileSync(RECORDS, 'utf8')) as { keys: Record<string, { did: string }> }
const dids = [...Object.values(records.keys).map((key) => key.did), 'did:key:z', '', 'did:example:ünïcode']

const file = {
  description: 'Shards (protocols/gossip-v1.md, "Shards"): the shard of each did under several shard counts, and the shard count for several network sizes. src/shard reproduces every one (test/unit/shard/shard.test.ts).',
  generator: 'scripts/generate-shard-vectors.ts (do not edit by hand; run it to regenerate)',
  agents_per_shard: AGENTS_PER_SHARD,
  max_count: MAX_COUNT,
  shards: dids.map((did) => ({ did, by_count: Object.fromEntries(COUNTS.map((count) => [String(count), shardOf(did, count)])) })),
  counts: POPULATIONS.map((population) => ({ population, count: shardCountFor(population) }))
}

const text = JSON.stringify(file, null, 2) + '\n'
if (process.argv.includes('--check')) {
  const committed = readFileSync(OUTPUT, 'utf8')
  if (committed !== text) { console.error('protocols/vectors/shard/shards.json differs from what the generator writes'); process.exit(1) }
} else {
  writeFileSync(OUTPUT, text)
}

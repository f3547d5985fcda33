import { performance } from 'node:perf_hooks'
import { createMemoryVerifier, type VerificationProof } from '../src/fdr/index.js'
import { nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import { LocalNode, initHome, selectOnNode } from '../src/node/index.js'
import { createSignedInputs, rawVerifyMeasure } from './crypto.js'
import { createTempDir } from './fixtures.js'
import { populate } from './query.js'
import type { Figure } from './report.js'
import { createRandom, interleave, median, percentile, pick, timeBoxed } from './stats.js'

/*
 * Figure 11: the FDR memory layer over a node of `memories` signed memories (the LevelDB store of
 * figure 4, opened by a LocalNode so every selection goes through the real path: index query, the
 * worlds from the store, trust under the node's policy, prove() with node:crypto, evidence, and the
 * MemoryTrace appended durably to the ledger). Baseline: the index query a selection starts from.
 * Then verifyProof() per second over the proofs those selections produced, against raw
 * crypto.verify per second (each proof here holds one signature: the memories are unattested).
 */

const LIMIT = 20
/** Target: top-20 selection over 100k memories, p99 under 50 ms. */
const TARGET_P99_MS = 50

export interface SelectBenchOptions {
  memories: number
  selections: number
  budgetMs: number
  progress: (message: string) => void
}

type Shape = 'tag' | 'tag + text' | 'most trusted' | 'index query (baseline)'

export async function benchSelect (options: SelectBenchOptions): Promise<Figure[]> {
  const { progress } = options
  progress(`11. populating a LevelDB store with ${options.memories.toLocaleString('en-US')} signed memories`)
  const setup = await populate(options.memories)
  await setup.store.close()
  const home = await createTempDir('select')
  await initHome(home.path)
  const node = await LocalNode.open({ home: home.path, store: setup.store })
  const random = createRandom(11)
  const latencies = new Map<Shape, number[]>()
  const proofs: VerificationProof[] = []
  try {
    // Words for text selections, taken from stored summaries (`#<serial> <word> …`).
    const words: Array<{ tag: string, word: string }> = []
    for (let i = 0; i < 50; i++) {
      const memory = await setup.store.getMemory(pick(random, setup.ids))
      const word = memory?.signed.record.content.summary.split(' ')[1]
      if (memory !== null && word !== undefined) words.push({ tag: pick(random, memory.signed.record.content.tags), word })
    }
    progress(`11. ${options.selections} selections of each shape, top ${LIMIT}`)
    for (let i = 0; i < options.selections + 20; i++) {
      const tag = pick(random, setup.tags.slice(0, 50))
      const text = pick(random, words)
      const runs: Array<[Shape, () => Promise<unknown>]> = [
        ['tag', async () => await selectOnNode(node, { selector: 'bench', tags: [tag], limit: LIMIT })],
        ['tag + text', async () => await selectOnNode(node, { selector: 'bench', tags: [text.tag], query: text.word, limit: LIMIT })],
        ['most trusted', async () => await selectOnNode(node, { selector: 'bench', limit: LIMIT })],
        ['index query (baseline)', async () => await setup.store.query({ tags: [tag], limit: 2 * LIMIT })]
      ]
      for (const [shape, run] of runs) {
        const start = performance.now()
        const result = await run()
        const ms = performance.now() - start
        if (i < 20) continue // warm-up
        const list = latencies.get(shape) ?? []
        list.push(ms)
        latencies.set(shape, list)
        if (shape === 'tag' && proofs.length < 256) {
          for (const s of (result as Awaited<ReturnType<typeof selectOnNode>>).selected) {
            if (s.evidence !== undefined) proofs.push({ method: s.evidence.method, proof: s.evidence.proof })
          }
        }
      }
    }
  } finally {
    await node.close()
    await home.remove()
    await setup.remove()
  }
  const figures: Figure[] = []
  const p = (shape: Shape, at: number): number => percentile(latencies.get(shape) ?? [], at)
  const base = { name: 'index query p99', value: p('index query (baseline)', 99), unit: 'ms' }
  const section = `11. FDR select(), ${options.memories.toLocaleString('en-US')} memories, top ${LIMIT}, trace appended to the ledger`
  for (const shape of ['tag', 'tag + text', 'most trusted'] as const) {
    figures.push({
      section,
      name: `select: ${shape}`,
      value: p(shape, 99),
      unit: 'ms',
      baseline: base,
      ratio: p(shape, 99) / base.value,
      target: { text: `p99 < ${TARGET_P99_MS} ms`, met: p(shape, 99) < TARGET_P99_MS },
      detail: { p50: round3(p(shape, 50)), p95: round3(p(shape, 95)), samples: latencies.get(shape)?.length ?? 0 }
    })
  }
  progress(`11. verifyProof() over ${proofs.length} isnad-ed25519 proofs`)
  const verifier = createMemoryVerifier({ signatures: nodeCryptoVerifier })
  const result = await interleave(rawVerifyMeasure(createSignedInputs(256), options.budgetMs), new Map([
    ['verifyProof', () => timeBoxed((i) => {
      if (!verifier.verifyProof(proofs[i % proofs.length] as VerificationProof)) throw new Error('a proof failed')
    }, options.budgetMs)]
  ]), 5)
  const slot = result.subjects.get('verifyProof')
  figures.push({
    section: '11. FDR verifyProof()',
    name: 'verifyProof (isnad-ed25519, 1 signature)',
    value: median(slot?.rates ?? []),
    unit: 'proofs/s',
    baseline: { name: 'raw crypto.verify', value: median(result.baseline), unit: 'verify/s' },
    ratio: median(slot?.ratios ?? []),
    detail: { proofs: proofs.length }
  })
  return figures
}

function round3 (value: number): number {
  return Math.round(value * 1000) / 1000
}

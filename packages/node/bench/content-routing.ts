import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import type { SingleKadDHT } from '@libp2p/kad-dht'
import { CID } from 'multiformats/cid'
import { nodeCryptoVerifier } from '../src/fast-crypto/index.js'
import { ContentRouter, createNetwork, type Network } from '../src/net/index.js'
import { verifyRecord } from '../src/record/index.js'
import { createAgent, memoryRecord, signFast } from './fixtures.js'
import { kadLineKeys } from './kad-line.js'
import { BenchHost } from './network-host.js'
import type { Figure } from './report.js'
import { median, percentile } from './stats.js'

/*
 * Content routing by CID (protocols/content-routing-v1.md) on 127.0.0.1: `line` real libp2p nodes in
 * a Kademlia line (bench/kad-line.ts), each dialled only to its neighbours; the last one holds a
 * memory and provides it. Each sample starts a fresh reader dialled only to the first node of the
 * line, lets it run the self-query a running node has run already, and times
 * `ContentRouter.fetchRecord`: the DHT lookup, hop by hop, then fetch-v1 from the
 * provider found, verification and storage. The baseline, in alternating samples of the same run, is
 * a fresh reader that already knows the holder's address: dial it and fetch the memory with fetch-v1.
 *
 *   npm run build && node dist/bench/content-routing.js [--line 12] [--samples 21]
 */

export interface ContentRoutingBenchOptions {
  line: number
  samples: number
  progress: (message: string) => void
}

interface Sample { ms: number, hops: number, queried: number }

const P50_TARGET_MS = 1000

function routingTableSize (network: Network): number {
  return (network.libp2p.services.dht as SingleKadDHT).routingTable.size
}

async function until (what: string, predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

async function startLightNode (init: { peerKey?: Parameters<typeof createNetwork>[0]['peerKey'] } = {}): Promise<{ network: Network, host: BenchHost }> {
  const host = new BenchHost()
  const network = await createNetwork({ host, verifier: nodeCryptoVerifier, syncOnConnect: false, ...init })
  return { network, host }
}

export async function benchContentRouting (options: ContentRoutingBenchOptions): Promise<Figure[]> {
  const author = createAgent(17, 1)
  const memory = signFast(memoryRecord(() => 0.5, { author, serial: 1, createdMillis: Date.now() - 60_000, tags: ['routing'] }), author)
  const cid = CID.parse(memory.id)
  options.progress(`content routing: ${options.line} nodes in a Kademlia line`)
  const keys = await kadLineKeys(cid, options.line)
  const line = await Promise.all(keys.map(async (peerKey) => await startLightNode({ peerKey })))
  const readers: Array<{ network: Network }> = []
  try {
    for (let i = 0; i + 1 < line.length; i++) await line[i]!.network.dial(line[i + 1]!.network.multiaddrs()[0]!)
    await until('neighbours in every routing table', () => line.every(({ network }, i) => routingTableSize(network) >= (i === 0 || i === line.length - 1 ? 1 : 2)))
    const holder = line[line.length - 1]!
    holder.host.putLocal(verifyRecord(memory.signed, { verifier: nodeCryptoVerifier, now: Date.now() }))
    const announcer = new ContentRouter(holder.network)
    announcer.provide([cid])
    await announcer.settled()
    if (announcer.stats.provided !== 1) throw new Error('the holder could not provide the memory')
    announcer.stop()

    const routed: Sample[] = []
    const direct: number[] = []
    for (let s = 0; s < options.samples * 2; s++) {
      const reader = await startLightNode()
      readers.push(reader)
      if (s % 2 === 0) {
        await reader.network.dial(line[0]!.network.multiaddrs()[0]!)
        await until('the reader\'s routing table', () => routingTableSize(reader.network) >= 1)
        // What a running node has done already: its self-query (kad-dht repeats it every 5 minutes).
        for await (const event of reader.network.libp2p.services.dht!.getClosestPeers(reader.network.peerId.toMultihash().bytes)) void event
        const router = new ContentRouter(reader.network)
        const start = performance.now()
        const found = await router.fetchRecord(memory.id)
        routed.push({ ms: performance.now() - start, hops: found.hops, queried: found.queried })
        router.stop()
      } else {
        const start = performance.now()
        await reader.network.dial(holder.network.multiaddrs()[0]!)
        const result = await reader.network.fetch(holder.network.peerId, [memory.id])
        direct.push(performance.now() - start)
        if (result.records.length !== 1) throw new Error('the direct fetch did not bring the memory')
      }
      if (!reader.host.records.has(memory.id)) throw new Error('the reader did not store the memory')
      await reader.network.stop()
      readers.pop()
    }
    const p50 = median(routed.map((r) => r.ms))
    const baseline = median(direct)
    options.progress(`content routing: p50 ${p50.toFixed(1)} ms over ${median(routed.map((r) => r.hops))} hops; direct fetch p50 ${baseline.toFixed(1)} ms`)
    return [{
      section: '17. content routing by CID (content-routing-v1)',
      name: `find by CID through the DHT + fetch-v1, ${options.line}-node Kademlia line, p50`,
      value: p50,
      unit: 'ms',
      baseline: { name: 'fetch-v1 from a known peer (dial + fetch), p50', value: baseline, unit: 'ms' },
      ratio: p50 / baseline,
      target: { text: `p50 < ${P50_TARGET_MS} ms`, met: p50 < P50_TARGET_MS },
      detail: {
        p95: Number(percentile(routed.map((r) => r.ms), 95).toFixed(1)),
        hopsMedian: median(routed.map((r) => r.hops)),
        hopsMin: Math.min(...routed.map((r) => r.hops)),
        queriedMedian: median(routed.map((r) => r.queried)),
        baselineP95: Number(percentile(direct, 95).toFixed(1)),
        samples: routed.length
      }
    }]
  } finally {
    await Promise.all([...readers, ...line].map(async ({ network }) => { await network.stop() }))
  }
}

async function main (): Promise<void> {
  const { values } = parseArgs({ options: { line: { type: 'string', default: '12' }, samples: { type: 'string', default: '21' } } })
  const figures = await benchContentRouting({
    line: Number(values.line),
    samples: Number(values.samples),
    progress: (message) => { process.stderr.write(`${message}\n`) }
  })
  process.stdout.write(JSON.stringify(figures, null, 2) + '\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
    process.exitCode = 1
  })
}

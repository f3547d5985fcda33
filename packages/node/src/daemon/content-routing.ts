import type { PeerId } from '@libp2p/interface'
import { CID } from 'multiformats/cid'
import type { BlockFetcher, BlockStore } from '../anchor/index.js'
import { IsnadError } from '../errors/index.js'
import type { Logger } from '../log/index.js'
import type { ContentRouter, Network, RoutedFetch } from '../net/index.js'
import { peerBlockFetcher, type LocalNode } from '../node/index.js'
import type { MemoryOrigin, MemoryView } from '../schema/index.js'
import type { StoredRecord } from '../record-index/index.js'
import type { RecordSource } from '../node/index.js'
import { isSampledProvider, providerChance } from './provider-sample.js'

/*
 * The daemon's side of content routing (protocols/content-routing-v1.md): what it announces as records
 * are stored (C2), `show` of a memory it does not hold (C7), and blocks of anchored content asked
 * from the providers of their root (C6).
 */

export interface ContentAnnouncerInit {
  node: LocalNode
  router: ContentRouter
  logger: Logger
  /** This node's peer id (its bytes): the sample of holders that announce a record is drawn from it. */
  peer: Uint8Array
  /** The node's estimate N̂ and its shard count now: how many nodes hold a record of one shard. */
  population: () => Promise<number>
  shardCount: () => number
}

/** The sources of records this node made: it announces them all (C2). */
const MADE_HERE: ReadonlySet<RecordSource> = new Set(['local', 'import'])

/**
 * C2: the memories this node makes or imports are announced as they are stored, and so are those it
 * receives (gossip, sync, fetch) when it is one of their sampled providers (provider-sample.ts); so is
 * the root of a cid anchor's content when this node holds that block. On start only the backlog of
 * records stored before is announced (C2a, content-backlog.ts): the DHT re-provides what it announced
 * before on its own schedule.
 */
export function startContentAnnouncer (init: ContentAnnouncerInit): () => void {
  const announce = async (records: readonly StoredRecord[], source: RecordSource): Promise<void> => {
    const chance = MADE_HERE.has(source) ? 1 : providerChance(await init.population(), init.shardCount())
    init.router.provide((await cidsToProvide(init.node, records)).filter((cid) => isSampledProvider(init.peer, cid, chance)))
  }
  return init.node.pipeline.onStored((records, source) => {
    announce(records, source).catch((err: unknown) => { init.logger.warn('content announcement failed', { error: err }) })
  })
}

/**
 * C2: the CIDs a stored batch makes this node a provider of: its memories, and the roots of cid
 * anchors whose block it holds. Attestations, anchors and witness requests are not announced: a
 * node looks a memory up (C7) and has its evidence from the provider that served it (C6a).
 */
export async function cidsToProvide (node: Pick<LocalNode, 'anchors'>, records: readonly StoredRecord[]): Promise<CID[]> {
  const cids: CID[] = []
  for (const { id, signed: { record } } of records) {
    if (record.kind === 'memory') cids.push(CID.parse(id))
    else if (record.kind === 'anchor' && record.type === 'cid') {
      const root = CID.parse(record.reference)
      if (await node.anchors.blocks.has(root)) cids.push(root)
    }
  }
  return cids
}

/**
 * C7: the memory view from `show`, or, when this node does not hold the memory, the memory found by
 * its CID through the DHT, fetched and verified by fetch-v1 with the evidence its provider holds
 * (fetch-v1 §9), stored, scored, and marked as fetched.
 */
export async function showHeldOrRouted (id: string, show: () => Promise<MemoryView>, router: ContentRouter | undefined): Promise<MemoryView> {
  try {
    return await show()
  } catch (err) {
    if (router === undefined || !(err instanceof IsnadError && err.code === 'NOT_FOUND')) throw err
  }
  const found = await router.fetchRecord(id, { evidence: true })
  return { ...await show(), origin: fetchedOrigin(found) }
}

function fetchedOrigin (found: RoutedFetch): MemoryOrigin {
  const hops = `${found.hops} DHT hop${found.hops === 1 ? '' : 's'} away`
  return {
    kind: 'fetched',
    from: found.from,
    providers: found.providers,
    hops: found.hops,
    reason: `fetched by its CID through the DHT from ${found.from} (its provider record was ${hops}): it lies outside what this node follows; ${evidenceText(found.evidence)}`
  }
}

function evidenceText (evidence: number | null | undefined): string {
  if (evidence === null || evidence === undefined) {
    return 'its provider sent none of its evidence, so its trust counts only the attestations and anchors this node holds'
  }
  const records = `${evidence} record${evidence === 1 ? '' : 's'}`
  return `its provider sent the evidence it holds with it (${records}: attestations, anchors, witness requests), each verified, and its trust counts them with what this node held`
}

/** Providers that served blocks lately, asked first for the next levels of a DAG (only its root is announced). */
const RECENT_BLOCK_PROVIDERS = 8

/**
 * C6 for blocks: missing blocks are asked from connected peers first (anchors-v1 §3); what they lack
 * from the providers that served blocks lately, then from the providers of the first missing CID that
 * the DHT finds (a cid anchor's root, announced by its holders, C2). Every block is re-hashed.
 */
export function routedBlockFetcher (network: Pick<Network, 'fetchBlocks' | 'libp2p'>, router: ContentRouter, blocks: BlockStore): BlockFetcher {
  const connected = peerBlockFetcher(network, blocks)
  const recent: PeerId[] = []
  const remember = (peer: PeerId): void => {
    const at = recent.findIndex((p) => p.equals(peer))
    if (at >= 0) recent.splice(at, 1)
    recent.unshift(peer)
    recent.length = Math.min(recent.length, RECENT_BLOCK_PROVIDERS)
  }
  return async (cids, signal) => {
    await connected(cids, signal)
    let missing = await absent(blocks, cids)
    if (missing.length > 0 && recent.length > 0) {
      await peerBlockFetcher(network, blocks, () => [...recent])(missing, signal)
      missing = await absent(blocks, missing)
    }
    if (missing.length === 0 || signal.aborted) return
    for await (const { peer } of router.findProviders(missing[0]!, { signal })) {
      if (peer.multiaddrs.length > 0) await network.libp2p.peerStore.merge(peer.id, { multiaddrs: peer.multiaddrs })
      await peerBlockFetcher(network, blocks, () => [peer.id])(missing, signal)
      const left = await absent(blocks, missing)
      if (left.length < missing.length) remember(peer.id)
      missing = left
      if (missing.length === 0) break
    }
  }
}

async function absent (blocks: BlockStore, cids: readonly CID[]): Promise<CID[]> {
  const missing: CID[] = []
  for (const cid of cids) if (!await blocks.has(cid)) missing.push(cid)
  return missing
}

import type { AnchorType } from '../schema/index.js'
import { createBlockchainChecker, type BlockchainVerifier } from './blockchain.js'
import type { BlockStore } from './blocks.js'
import { createCidChecker, type BlockFetcher } from './cid.js'
import { createGitChecker } from './git.js'
import type { AnchorChecker } from './types.js'
import { createUrlChecker, type UrlLimits } from './url.js'

/** How a node checks anchors: what it has locally and what it is configured to ask. */
export interface AnchorCheckersInit {
  blocks: BlockStore
  /** The current way to ask peers for blocks (set once the network runs). */
  fetchBlocks?: () => BlockFetcher | undefined
  /** Local git repositories searched for git_commit anchors. */
  gitRepositories?: readonly string[]
  urlLimits?: UrlLimits
  /** Hosts and ranges anchors from peers may reach although not public (anchors-v1 §9). */
  urlAllow?: readonly string[]
  blockchainVerifiers?: readonly BlockchainVerifier[]
}

/** One checker per anchor type (anchors-v1 §4). */
export function createAnchorCheckers (init: AnchorCheckersInit): Record<AnchorType, AnchorChecker> {
  const url = createUrlChecker({ ...init.urlLimits, ...(init.urlAllow === undefined ? {} : { allow: init.urlAllow }) })
  return {
    cid: createCidChecker({ blocks: init.blocks, ...(init.fetchBlocks === undefined ? {} : { fetchBlocks: init.fetchBlocks }) }),
    git_commit: createGitChecker({ repositories: init.gitRepositories ?? [] }),
    url,
    // A Moltbook post is checked as the page it is (anchors-v1 V3); a reference that is not a URL
    // would need a Moltbook resolver, which the url checker reports as unverifiable.
    moltbook_post: url,
    blockchain: createBlockchainChecker(init.blockchainVerifiers ?? [])
  }
}

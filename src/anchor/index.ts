/**
 * Anchors (protocols/anchors-v1.md): content addressed the way IPFS addresses it (UnixFS, kubo's
 * `ipfs add --cid-version 1` defaults), and the verification of cid, git_commit, url,
 * moltbook_post and blockchain anchors into verified / mismatch / unreachable / unverifiable,
 * cached with a TTL. I/O lives here (blockstore, git, HTTP); time comes in as a clock.
 */
import type { AnchorType } from '../schema/index.js'
import { createBlockchainChecker, type BlockchainVerifier } from './blockchain.js'
import type { BlockStore } from './blocks.js'
import { createCidChecker, type BlockFetcher } from './cid.js'
import { createGitChecker } from './git.js'
import type { AnchorChecker } from './types.js'
import { createUrlChecker, type UrlLimits } from './url.js'

export * from './constants.js'
export * from './blocks.js'
export * from './unixfs.js'
export * from './types.js'
export * from './states.js'
export * from './anchor-verifier.js'
export { createCidChecker, cidAnchorHash, type BlockFetcher, type CidCheckerInit } from './cid.js'
export { createGitChecker, parseGitReference, formatGitReference, resolveGitAnchor, objectFormatOf, type GitCheckerInit, type GitObjectFormat } from './git.js'
export {
  createUrlChecker, fetchBounded, sha256Hex, UrlFetchError, ADDRESS_REFUSED, type UrlLimits, type UrlCheckerInit, type FetchOptions, type HostResolver
} from './url.js'
export {
  ANY_ADDRESS_POLICY, isPublicAddress, parseUrlAllowance, publicOnlyPolicy, specialRangeOf,
  type AddressPolicy, type AddressRefusal, type AnchorOrigin, type SpecialRange, type UrlAllowance
} from './address-policy.js'
export { createBlockchainChecker, type BlockchainVerifier } from './blockchain.js'
export { AnchorSourceSchema, prepareAnchorClaim, type AddAnchorInput, type AnchorSource } from './create.js'
export { assertFileAnchorAllowed, openAnchorFile, type FileAnchorAccess, type OpenedAnchorFile } from './file-access.js'

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

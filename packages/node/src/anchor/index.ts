/**
 * Anchors (protocols/anchors-v1.md): content addressed the way IPFS addresses it (UnixFS, kubo's
 * `ipfs add --cid-version 1` defaults), and the verification of cid, git_commit, url,
 * moltbook_post and blockchain anchors into verified / mismatch / unreachable / unverifiable,
 * cached with a TTL. I/O lives here (blockstore, git, HTTP); time comes in as a clock.
 */
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
export { createAnchorCheckers, type AnchorCheckersInit } from './checkers.js'

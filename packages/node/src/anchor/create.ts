import { IsnadError } from '../errors/index.js'
import { isUnixfsBlockCid, parseCid, type BlockStore } from './blocks.js'
import { cidAnchorHash } from './cid.js'
import { assertFileAnchorAllowed, openAnchorFile, type FileAnchorAccess } from './file-access.js'
import { resolveGitAnchor } from './git.js'
import { importUnixfs } from './unixfs.js'
import { ANY_ADDRESS_POLICY } from './address-policy.js'
import { fetchBounded, parseHttpUrl, sha256Hex, UrlFetchError, type UrlLimits } from './url.js'
import type { AnchorClaim } from './types.js'
import type { AnchorSource } from './anchor-source.js'

export { AnchorSourceSchema, type AnchorSource } from './anchor-source.js'

/** What `isnad anchor add <memory>` asks for: the memory and the evidence's source. */
export type AddAnchorInput = AnchorSource & { memory: string }

export interface PrepareInit {
  blocks: BlockStore
  urlLimits?: UrlLimits
  /** Which files a file anchor may read (file-access.ts); the node always names its private files. */
  files: FileAnchorAccess
}

/**
 * The type, reference and hash of the anchor `input` describes (anchors-v1 §2): a file is imported
 * into the blockstore as UnixFS and anchored by its CID; a URL is fetched within the limits and
 * hashed; a git commit is resolved to its full id. Fails before anything is signed.
 */
export async function prepareAnchorClaim (input: AddAnchorInput, init: PrepareInit): Promise<AnchorClaim> {
  switch (input.source) {
    case 'file': {
      // Read through the descriptor that was checked, never the path again (anchors-v1 §2.1).
      const { handle } = await openAnchorFile(input.path, init.files)
      try {
        const { cid } = await importUnixfs(handle.createReadStream({ autoClose: false }), init.blocks.importTarget)
        return { type: 'cid', reference: cid.toString(), hash: cidAnchorHash(cid) }
      } finally {
        await handle.close()
      }
    }
    case 'cid': {
      let cid = parseCid(input.cid)
      if (cid.version === 0) cid = cid.toV1()
      if (!isUnixfsBlockCid(cid)) throw new IsnadError('USAGE', `${input.cid} is not a raw or dag-pb CID with sha2-256 (UnixFS content)`)
      return { type: 'cid', reference: cid.toString(), hash: cidAnchorHash(cid) }
    }
    case 'git':
      // A repository is read like a file (anchors-v1 §2.1): git runs in it and hashes a
      // blob of it, so it may not be under the home's private files, and for a daemon's API clients
      // it must be under the operator's --anchor-dir (PATH_FORBIDDEN, before "not found").
      return await resolveGitAnchor(await assertFileAnchorAllowed(input.repository, init.files), input.commit, input.path)
    case 'url':
    case 'moltbook':
      return { type: input.source === 'url' ? 'url' : 'moltbook_post', reference: input.url, hash: `sha2-256:${await hashUrl(input.url, init.urlLimits)}` }
    case 'blockchain':
      return { type: 'blockchain', reference: input.reference, hash: input.hash }
  }
}

/** Anchoring is this node's own agent asking (anchors-v1 §9): an intranet URL may be anchored. */
async function hashUrl (url: string, limits?: UrlLimits): Promise<string> {
  parseHttpUrl(url)
  try {
    return sha256Hex(await fetchBounded(url, { ...limits, policy: ANY_ADDRESS_POLICY }))
  } catch (err) {
    if (err instanceof UrlFetchError && err.failure !== 'not-http') {
      throw new IsnadError('IO_ERROR', `cannot anchor ${url}: ${err.message}`, { cause: err })
    }
    throw err
  }
}

import { z } from 'zod'
import { isIsnadError } from '../../errors/index.js'
import type { SignatureVerifier } from '../../identity/index.js'
import {
  computeRoot, detectEquivocation, EMPTY_ROOT, hashChildren, hashLeaf, hashToHex, leafDataOfCid, verifyCheckpoint,
  type SignedCheckpoint, type VerifiedCheckpoint
} from '../../merkle/index.js'
import type { FindingDraft } from './findings.js'

/**
 * Rebuilds a scope's RFC 6962 Merkle log from its record events, in lc order (docs/architecture.md,
 * "The data directory": one leaf per record event, leaf data = the record's CID bytes, transparency-v1 R1), and
 * checks every `memory.checkpointed` event against it: the signature (transparency-v1 §5.3), and
 * that `size` is the number of leaves before it and `root` their MTH (RFC 6962 §2.1). A CID already
 * in the log is not a new leaf: the node's MerkleLog keeps a leaf's first index (R2).
 */

const CheckpointPayloadSchema = z.looseObject({ id: z.string(), checkpoint: z.unknown() })

export interface Where {
  file: string
  offset: number
  line: number
}

/** Two checkpoints of one log with one size must have one root (transparency-v1 §6); shared across scopes. */
export class CheckpointRegistry {
  private readonly first = new Map<string, { signed: SignedCheckpoint, id: string, file: string }>()
  private readonly reported = new Set<string>()

  constructor (private readonly verifier: SignatureVerifier) {}

  /** Returns a finding when `signed` (already verified) forks from an earlier checkpoint. */
  add (id: string, signed: SignedCheckpoint, where: Where): FindingDraft | undefined {
    const key = `${signed.record.log}\0${signed.record.size}`
    const earlier = this.first.get(key)
    if (earlier === undefined) {
      this.first.set(key, { signed, id, file: where.file })
      return undefined
    }
    const evidence = detectEquivocation(earlier.signed, signed, this.verifier)
    const pair = [earlier.id, id].sort().join(' ')
    if (evidence?.type !== 'equivocation' || this.reported.has(pair)) return undefined
    this.reported.add(pair)
    return {
      kind: 'equivocation',
      ...where,
      message: `checkpoints ${earlier.id} (${earlier.file}) and ${id} of log ${signed.record.log} both have size ` +
        `${signed.record.size} with different roots: the log forked (transparency-v1 §6)`
    }
  }
}

export class LogAuditor {
  private readonly leafHashes: Uint8Array[] = []
  private readonly leaves = new Set<string>()
  /** The perfect subtrees of the current tree, largest first (RFC 6962 §2.1), for the root in O(log n). */
  private readonly frontier: Uint8Array[] = []

  constructor (private readonly verifier: SignatureVerifier, private readonly registry: CheckpointRegistry, private readonly now: number) {}

  get size (): number {
    return this.leafHashes.length
  }

  addLeaf (cid: string): void {
    if (this.leaves.has(cid)) return
    this.leaves.add(cid)
    const hash = hashLeaf(leafDataOfCid(cid))
    let node = hash
    for (let at = this.leafHashes.length; at % 2 === 1; at = Math.floor(at / 2)) node = hashChildren(this.frontier.pop() as Uint8Array, node)
    this.frontier.push(node)
    this.leafHashes.push(hash)
  }

  private rootAt (size: number): Uint8Array {
    if (size !== this.size) return computeRoot(this.leafHashes, size)
    if (size === 0) return Uint8Array.from(EMPTY_ROOT)
    let root = this.frontier[this.frontier.length - 1] as Uint8Array
    for (let i = this.frontier.length - 2; i >= 0; i--) root = hashChildren(this.frontier[i] as Uint8Array, root)
    return root
  }

  /** The findings of one checkpoint event; `explained` when a quarantine removed leaves before it. */
  checkCheckpoint (payload: Record<string, unknown>, where: Where, explained: string | undefined): FindingDraft[] {
    const parsed = CheckpointPayloadSchema.safeParse(payload)
    if (!parsed.success) return [{ kind: 'checkpoint_invalid', ...where, message: `line ${where.line}: the payload is not { id, checkpoint }` }]
    let verified: VerifiedCheckpoint
    try {
      verified = verifyCheckpoint(parsed.data.checkpoint, this.verifier, { now: this.now })
    } catch (err) {
      if (!isIsnadError(err)) throw err
      return [{ kind: 'checkpoint_invalid', ...where, message: `checkpoint ${parsed.data.id.slice(0, 80)}: ${err.code}: ${err.message}` }]
    }
    const { id, signed } = verified
    const drafts: FindingDraft[] = []
    if (id !== parsed.data.id) drafts.push({ kind: 'checkpoint_invalid', ...where, message: `payload.id ${parsed.data.id.slice(0, 80)} is not the checkpoint's id ${id}` })
    const { size, root } = signed.record
    const because = explained === undefined ? '' : ` (explained by the quarantine of ${explained})`
    const severity = explained === undefined ? 'error' : 'warning'
    if (size !== this.size) {
      drafts.push({ kind: 'checkpoint_size', severity, ...where, message: `checkpoint ${id} has size ${size}, the ledger has ${this.size} record events before it${because}` })
    }
    if (size <= this.size && hashToHex(this.rootAt(size)) !== root) {
      drafts.push({ kind: 'checkpoint_root', severity, ...where, message: `checkpoint ${id} has root ${root}, the record events before it give ${hashToHex(this.rootAt(size))} at size ${size}${because}` })
    }
    const fork = this.registry.add(id, signed, where)
    if (fork !== undefined) drafts.push(fork)
    return drafts
  }

  /** The recomputed log: size and root. */
  summary (): { size: number, root: string } {
    return { size: this.size, root: hashToHex(this.rootAt(this.size)) }
  }
}

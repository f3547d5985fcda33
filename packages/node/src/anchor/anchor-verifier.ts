import type { AnchorRecord, AnchorType, AnchorVerification } from '../schema/index.js'
import type { AnchorOrigin } from './address-policy.js'
import { ANCHOR_CHECK_CONCURRENCY, ANCHOR_STATE_TTL_MS, MAX_REASON_CHARS } from './constants.js'
import type { AnchorStateStore, StoredState } from './states.js'
import type { AnchorCheck, AnchorChecker, CheckOutcome } from './types.js'

/** @default 120000 — one check of one anchor, whatever its type (a cid DAG fetched from peers is the slowest). */
export const ANCHOR_CHECK_TIMEOUT_MS = 120_000

/** A stored anchor: its record id and record. */
export interface AnchorTarget {
  id: string
  record: AnchorRecord
}

export interface AnchorVerifierInit {
  checkers: Record<AnchorType, AnchorChecker>
  states: AnchorStateStore
  /** ms since the epoch. */
  clock: () => number
  /** @default ANCHOR_STATE_TTL_MS */
  ttlMs?: number
  /** @default ANCHOR_CHECK_TIMEOUT_MS */
  timeoutMs?: number
  /**
   * Whether one of this node's own agents made an anchor (its url may then reach private addresses,
   * anchors-v1 §9). @default every anchor is a peer's: the strict policy
   */
  originOf?: (record: AnchorRecord) => Promise<AnchorOrigin>
  /** Told of every check run (not of cache hits), after its state is cached: the node journals them. */
  onChecked?: (checks: readonly AnchorCheck[]) => Promise<void>
}

export interface CurrentOptions {
  /** Check even when the cached state is fresh (`isnad anchor check`). @default false */
  force?: boolean
}

/**
 * The verification state of each anchor, current to within the TTL (anchors-v1 §5): a fresh cached
 * state is returned as is, an older or absent one is checked again. A check of an anchor already in
 * flight is joined, not repeated.
 */
export class AnchorVerifier {
  private readonly running = new Map<string, Promise<AnchorCheck>>()
  private readonly ttlMs: number
  private readonly timeoutMs: number

  constructor (private readonly init: AnchorVerifierInit) {
    this.ttlMs = init.ttlMs ?? ANCHOR_STATE_TTL_MS
    this.timeoutMs = init.timeoutMs ?? ANCHOR_CHECK_TIMEOUT_MS
  }

  /** The current checks of `targets`, in their order; fresh checks are reported to onChecked together. */
  async currentMany (targets: readonly AnchorTarget[], options: CurrentOptions = {}): Promise<AnchorCheck[]> {
    const results: AnchorCheck[] = new Array<AnchorCheck>(targets.length)
    const fresh: AnchorCheck[] = []
    let next = 0
    const worker = async (): Promise<void> => {
      for (let i = next++; i < targets.length; i = next++) {
        const target = targets[i]
        if (target === undefined) continue
        const { check, ran } = await this.current(target, options)
        results[i] = check
        if (ran) fresh.push(check)
      }
    }
    await Promise.all(Array.from({ length: Math.min(ANCHOR_CHECK_CONCURRENCY, targets.length) }, worker))
    if (fresh.length > 0) await this.init.onChecked?.(fresh)
    return results
  }

  /** One anchor's current check, and whether it ran now (false: the cached state was fresh). */
  private async current (target: AnchorTarget, { force = false }: CurrentOptions): Promise<{ check: AnchorCheck, ran: boolean }> {
    const cached = await this.init.states.get(target.id)
    if (!force && cached !== null && this.isFresh(cached)) return { check: checkOf(target, cached), ran: false }
    let run = this.running.get(target.id)
    if (run === undefined) {
      run = this.run(target, cached).finally(() => { this.running.delete(target.id) })
      this.running.set(target.id, run)
    }
    return { check: await run, ran: true }
  }

  /** A failure to tell the origin falls back to the strict side: a peer's anchor. */
  private async originOf (record: AnchorRecord): Promise<AnchorOrigin> {
    if (this.init.originOf === undefined) return 'peer'
    return await this.init.originOf(record).catch(() => 'peer' as const)
  }

  private isFresh (state: StoredState): boolean {
    const age = this.init.clock() - Date.parse(state.checked_at)
    return age >= 0 && age < this.ttlMs
  }

  private async run (target: AnchorTarget, previous: StoredState | null): Promise<AnchorCheck> {
    const signal = AbortSignal.timeout(this.timeoutMs)
    let outcome: CheckOutcome
    try {
      const origin = await this.originOf(target.record)
      outcome = await this.init.checkers[target.record.type](target.record, signal, { origin })
    } catch (err) {
      // A checker fails only on an I/O error of this node (its blockstore, a spawn); not the anchor's fault.
      outcome = { state: 'unreachable', reason: `the check failed: ${err instanceof Error ? err.message : String(err)}` }
    }
    const state: StoredState = {
      state: outcome.state,
      reason: outcome.reason.slice(0, MAX_REASON_CHARS),
      checked_at: new Date(this.init.clock()).toISOString(),
      ...(outcome.drift === true ? { drift: true } : {})
    }
    await this.init.states.put(target.id, target.record.memory, state)
    return { ...checkOf(target, state), ...(previous === null ? {} : { previous: previous.state }) }
  }
}

function checkOf ({ id, record }: AnchorTarget, state: StoredState): AnchorCheck {
  return {
    id,
    memory: record.memory,
    type: record.type,
    reference: record.reference,
    state: state.state,
    reason: state.reason,
    checked_at: state.checked_at,
    ...(state.drift === true ? { drift: true } : {})
  }
}

/** The view's form of a check (MemoryView anchors[].verification). */
export function verificationOf (check: AnchorCheck): AnchorVerification {
  return { state: check.state, reason: check.reason, checked_at: check.checked_at }
}

import type { AnchorState, MemoryView, RecordKind, RecordOfKind } from '../../schema/index.js'
import { checkSignedRecord, type BrowserCheck } from './verify-in-browser.js'

/*
 * A memory's isnad chain as the page draws it: the author's signed memory, the witnesses with their
 * verdicts, the anchors with their verification state. Every link is a record the browser checked
 * itself (verify.ts) from the node's export bundle; what the node listed in its view but did not
 * send is shown as unverified, never taken on trust. Pure: no DOM.
 */

export interface ChainLink {
  id: string
  check: BrowserCheck
  /** Who signed it (from the record the browser checked, else from the node's view). */
  signer: string
  time: string
}

export interface WitnessLink extends ChainLink {
  verdict: 'confirm' | 'dispute' | 'partial'
  notes?: string
  /** What a partial attestation confirms (record-v1: only a partial carries claims). */
  claims?: string[]
}

export interface AnchorLink extends ChainLink {
  type: string
  reference: string
  /** The node's check of the anchored content (the page cannot fetch it); `unlisted` when the node did not report one. */
  state: AnchorState | 'unlisted'
  /** The node's reason for that state, when it gave one. */
  stateReason?: string
}

export interface Chain {
  author: ChainLink
  witnesses: WitnessLink[]
  anchors: AnchorLink[]
  /** How many links the browser verified, of how many. */
  verified: number
  total: number
}

const missing = (id: string): BrowserCheck => ({ id, idMatches: false, valid: false, reason: 'the node listed this record but did not send it' })

/** A link's check, when the bundle sent a record of `kind` with that id, and the record; else `missing`. */
function checkOf<K extends RecordKind> (checks: ReadonlyMap<string, BrowserCheck>, id: string, kind: K): { check: BrowserCheck, record?: RecordOfKind<K> } {
  const check = checks.get(id)
  const record = check?.record
  return check !== undefined && record?.kind === kind ? { check, record: record as RecordOfKind<K> } : { check: missing(id) }
}

export function buildChain (view: MemoryView, bundleRecords: readonly unknown[]): Chain {
  const checks = new Map<string, BrowserCheck>()
  for (const input of bundleRecords) {
    const check = checkSignedRecord(input)
    checks.set(check.id, check)
  }
  const author: ChainLink = {
    id: view.id,
    check: checkOf(checks, view.id, 'memory').check,
    signer: checks.get(view.id)?.signer ?? view.provenance.author.agent_id,
    time: view.provenance.created_at
  }
  const witnessIds = new Set(view.witnesses.map((w) => w.id))
  const anchorIds = new Set(view.anchors.map((a) => a.id))
  for (const check of checks.values()) {
    // Evidence for this memory the view did not list is drawn too: the bundle is what was checked.
    if (check.record?.kind === 'attestation' && check.record.memory === view.id) witnessIds.add(check.id)
    if (check.record?.kind === 'anchor' && check.record.memory === view.id) anchorIds.add(check.id)
  }
  const witnesses = [...witnessIds].map((id): WitnessLink => {
    const { check, record } = checkOf(checks, id, 'attestation')
    const listed = view.witnesses.find((w) => w.id === id)
    const notes = record?.notes ?? listed?.notes
    const claims = record?.claims ?? listed?.claims
    return {
      id,
      check,
      signer: record?.witness ?? listed?.agent_id ?? '',
      time: record?.witnessed_at ?? listed?.witnessed_at ?? '',
      verdict: record?.attestation ?? listed?.attestation ?? 'partial',
      ...(notes === undefined ? {} : { notes }),
      ...(claims === undefined ? {} : { claims })
    }
  })
  const anchors = [...anchorIds].map((id): AnchorLink => {
    const { check, record } = checkOf(checks, id, 'anchor')
    const listed = view.anchors.find((a) => a.id === id)
    return {
      id,
      check,
      signer: record?.anchored_by ?? listed?.anchored_by ?? '',
      time: record?.created_at ?? listed?.created_at ?? '',
      type: record?.type ?? listed?.type ?? '',
      reference: record?.reference ?? listed?.reference ?? '',
      state: listed?.verification.state ?? 'unlisted',
      ...(listed?.verification.reason === undefined ? {} : { stateReason: listed.verification.reason })
    }
  })
  const links = [author, ...witnesses, ...anchors]
  return { author, witnesses, anchors, verified: links.filter((l) => l.check.valid).length, total: links.length }
}

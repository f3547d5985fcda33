import { truncate } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import type { SignatureVerifier } from '../identity/index.js'
import { JsonlAppender, readRawLines, verifyLineHash, withLineHash } from '../ledger/index.js'
import { signerOf, timeOf } from '../record/index.js'
import type { SignedRecord } from '../schema/index.js'
import { applyKeyEvents, type KeyLogState } from './key-chain.js'
import { parseSignedKeyEvent } from './codec.js'
import { MAX_KEY_LOGS } from './constants.js'
import type { KeyLog, SignedKeyEvent } from './schema.js'
import { keyStatusAt, keyStatusError, mergeKeyLog, type KeyStatus, type MergeResult } from './key-status.js'

/** Where a node keeps its key events, relative to its data directory (a coordination ledger, Memory Format Spec V3.1 §10). */
export const KEY_EVENTS_LEDGER = 'coordination/key-events.jsonl'

export function keyEventsPath (dataDir: string): string {
  return join(dataDir, KEY_EVENTS_LEDGER)
}

/** How a log reached the keyring: built here, or received from a peer. */
export type KeyLogSource = 'local' | 'gossip' | 'import'

export type KeyLogListener = (state: KeyLogState, added: readonly SignedKeyEvent[], source: KeyLogSource) => void

export interface KeyringInit {
  /** The JSONL ledger the events are kept in; absent: memory only. */
  file?: string
  /** Read the file but never write it (a node opened read-only): accept refuses. @default false */
  readOnly?: boolean
  verifier: SignatureVerifier
  /** ms since the epoch. */
  clock: () => number
}

/** One line of the key events ledger: the event, its id, and the spec's line hash (Memory Format Spec V3.1 §8). */
const KeyEventLineSchema = z.object({ id: z.string(), event: z.unknown(), hash: z.string() })

/**
 * record-v1 K12 as the network's gate and the ingest pipeline ask it (the Keyring is one): the error
 * refusing a verified record because of its key's history at the record's time, or undefined.
 */
export interface RecordKeyCheck {
  checkRecord: (signed: SignedRecord, id: string) => IsnadError | undefined
}

/**
 * The key logs a node knows (record-v1 §13): kept in a JSONL ledger, one line per event, read back
 * whole when the node opens (logs are short: MAX_KEY_LOG_EVENTS). Verification asks it whether a
 * record's key could sign at the record's time (K12); the network hands it logs from gossip.
 */
export class Keyring implements RecordKeyCheck {
  private readonly logs = new Map<string, KeyLogState>()
  /** Every key any log names → its identity (K13: a key belongs to one identity). */
  private readonly owners = new Map<string, string>()
  private readonly appender: JsonlAppender | undefined
  private tail: Promise<unknown> = Promise.resolve()
  private readonly listeners = new Set<KeyLogListener>()

  private constructor (private readonly init: KeyringInit) {
    this.appender = init.file === undefined || init.readOnly === true ? undefined : new JsonlAppender(init.file)
  }

  /** Calls `listener` after new events were written (the daemon gossips the logs built here). */
  onAdded (listener: KeyLogListener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  /** Opens the keyring and replays its ledger; a torn last line (a crash mid-write) is cut off. */
  static async open (init: KeyringInit): Promise<Keyring> {
    const events = init.file === undefined ? [] : await readKeyEvents(init.file)
    const keyring = new Keyring(init)
    for (const event of events) {
      // Each line was checked when it was appended; a line that no longer applies is skipped, so a
      // damaged file degrades to fewer known revocations rather than a node that cannot open.
      try {
        keyring.install(applyKeyEvents(keyring.logs.get(event.record.identity), [event], { verifier: init.verifier, now: Infinity }))
      } catch {}
    }
    return keyring
  }

  async close (): Promise<void> {
    await this.tail.catch(() => {})
    await this.appender?.close()
  }

  /** The log of an identity, or undefined. */
  logOf (identity: string): KeyLog | undefined {
    const state = this.logs.get(identity)
    return state === undefined ? undefined : { events: [...state.events] }
  }

  stateOf (identity: string): KeyLogState | undefined {
    return this.logs.get(identity)
  }

  /** The identity a key signs for (itself when no log names it). */
  identityOf (did: string): string {
    return this.owners.get(did) ?? did
  }

  identities (): string[] {
    return [...this.logs.keys()]
  }

  /** record-v1 K12 for one key at one instant; undefined when no log names the key. */
  statusOf (did: string, at: number): KeyStatus | undefined {
    const identity = this.owners.get(did)
    const state = identity === undefined ? undefined : this.logs.get(identity)
    return state === undefined ? undefined : keyStatusAt(state, did, at)
  }

  /** The error refusing `signed` (its signer's key was rotated out, revoked or not yet valid at its time), or undefined. */
  checkRecord (signed: SignedRecord, id: string): IsnadError | undefined {
    const did = signerOf(signed.record)
    const at = timeOf(signed.record)
    const status = this.statusOf(did, Date.parse(at))
    if (status === undefined || status.status === 'valid') return undefined
    return keyStatusError(status, did, `${signed.record.kind} ${id}`, at)
  }

  /**
   * Merges a received or locally built log (record-v1 K13), writes its new events to the ledger
   * before they count, and returns them. Calls are serialised, so two copies of one log arriving at
   * once are merged one after the other.
   */
  async accept (log: KeyLog, source: KeyLogSource = 'local'): Promise<MergeResult> {
    if (this.init.readOnly === true) throw new IsnadError('USAGE', 'this keyring was opened read-only')
    const run = this.tail.then(async () => await this.acceptNow(log, source))
    this.tail = run.catch(() => undefined)
    return await run
  }

  private async acceptNow (log: KeyLog, source: KeyLogSource): Promise<MergeResult> {
    const first = log.events[0]
    if (first === undefined) throw new IsnadError('KEY_EVENT_INVALID', 'an empty key log')
    const identity = first.record.identity
    const known = this.logs.get(identity)
    if (known === undefined && this.logs.size >= MAX_KEY_LOGS) {
      throw new IsnadError('RATE_LIMITED', `this node keeps at most ${MAX_KEY_LOGS} key logs`)
    }
    const result = mergeKeyLog(known, log, { verifier: this.init.verifier, now: this.init.clock() })
    if (result.added.length === 0) return result
    for (const did of result.state.keys.keys()) {
      const owner = this.owners.get(did)
      if (owner !== undefined && owner !== identity) {
        throw new IsnadError('KEY_EVENT_CONFLICT', `${did} is already a key of ${owner}, not of ${identity}`, { details: { key: did, identity, owner } })
      }
    }
    const from = result.state.events.length - result.added.length
    await this.appender?.appendObjects(result.added.map((event, i) => withLineHash({ id: result.state.ids[from + i] as string, event })))
    this.install(result.state)
    for (const listener of this.listeners) listener(result.state, result.added, source)
    return result
  }

  private install (state: KeyLogState): void {
    this.logs.set(state.identity, state)
    for (const did of state.keys.keys()) if (!this.owners.has(did)) this.owners.set(did, state.identity)
  }
}

async function readKeyEvents (file: string): Promise<SignedKeyEvent[]> {
  const events: SignedKeyEvent[] = []
  for await (const line of readRawLines(file)) { // a missing file reads as no lines
    if (!line.terminated) {
      await truncate(file, line.offset)
      break
    }
    try {
      const value: unknown = JSON.parse(line.bytes.toString('utf8'))
      const parsed = KeyEventLineSchema.safeParse(value)
      if (parsed.success && verifyLineHash(value)) events.push(parseSignedKeyEvent(parsed.data.event))
    } catch {} // a damaged line: reported by the ledger audit, skipped here
  }
  return events
}

import { IsnadError } from '../errors/index.js'
import { nodeCryptoVerifier } from '../native/index.js'
import { proveRecordInclusion, verifyCheckpoint, type RecordInclusion, type SignedCheckpoint } from '../merkle/index.js'
import { DEFAULT_TRUST_POLICY } from '../trust/index.js'
import { rescoreStoredTrust } from './memory-evidence.js'
import { LocalNode } from './local-node.js'
import { JournalState } from './journal/journal-state.js'
import { reindexHome, type ReindexResult } from './reindex/reindex.js'
import { DEFAULT_SCOPE, journalIndexPath, nodePaths } from './home-paths.js'

/**
 * `isnad ledger reindex`: rebuilds the index from the ledgers, then records the reconciliation as a
 * `memory.reconciled` event through a normal writing session.
 */
export async function reindex (home: string, clock: () => number = Date.now, scope = DEFAULT_SCOPE): Promise<ReindexResult> {
  const result = await reindexHome(nodePaths(home), scope, clock)
  const node = await LocalNode.open({ home, clock, scope })
  try {
    // reindexHome scores with the defaults (it has no node); the node's own setting, if it differs, is applied here.
    const setting = await node.trust.setting()
    if (setting.policy !== DEFAULT_TRUST_POLICY || setting.reputation !== undefined || node.keyring.identities().length > 0) {
      await rescoreStoredTrust(node.store, clock(), setting)
    }
    await node.writer.recordReconciled({ reason: 'reindex', ...result })
  } finally {
    await node.close()
  }
  return result
}

async function withState<T> (home: string, fn: (state: JournalState) => Promise<T>): Promise<T> {
  const state = await JournalState.open(journalIndexPath(nodePaths(home)))
  try {
    return await fn(state)
  } finally {
    await state.close()
  }
}

/** The newest checkpoint this node signed over its log. */
export async function latestCheckpoint (home: string): Promise<SignedCheckpoint> {
  const checkpoint = await withState(home, async (state) => await state.latestCheckpoint())
  if (checkpoint === null) throw new IsnadError('NOT_FOUND', 'this node has not signed a checkpoint yet: its log is empty')
  return checkpoint
}

/** `isnad ledger prove <cid>`: a self-contained proof that the record is in the node's signed log. */
export async function proveRecord (home: string, id: string): Promise<RecordInclusion> {
  return await withState(home, async (state) => {
    const checkpoint = await state.latestCheckpoint()
    const inclusion = checkpoint === null ? undefined : await proveRecordInclusion(state.merkle, id, checkpoint)
    if (inclusion === undefined) throw new IsnadError('NOT_FOUND', `record ${id} is not in this node's signed log`, { details: { id } })
    return inclusion
  })
}

/**
 * `isnad ledger observe <file>`: keeps another node's (or this node's) checkpoint; one of the same
 * log and size with a different root is recorded in coordination/conflicts.jsonl.
 */
export async function observeCheckpoint (home: string, input: unknown, clock: () => number = Date.now): Promise<'new' | 'known' | 'conflict'> {
  const { signed } = verifyCheckpoint(input, nodeCryptoVerifier, { now: clock() })
  const node = await LocalNode.open({ home, clock })
  try {
    return await node.writer.observeCheckpoint(signed)
  } finally {
    await node.close()
  }
}

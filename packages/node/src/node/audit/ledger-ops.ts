import { IsnadError } from '../../errors/index.js'
import { nodeCryptoVerifier } from '../../fast-crypto/index.js'
import { proveRecordInclusion, verifyCheckpoint, type RecordInclusion, type SignedCheckpoint } from '../../merkle/index.js'
import { LocalNode } from '../local-node.js'
import { JournalState } from '../journal/journal-state.js'
import { journalIndexPath, nodePaths } from '../../home/index.js'

/** `isnad ledger reindex`, with the ledger commands (it lives beside LocalNode, which runs it on an outdated index). */
export { reindex } from '../local-node.js'

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
    return await node.journal.observeCheckpoint(signed)
  } finally {
    await node.close()
  }
}

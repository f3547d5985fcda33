import { JsonlAppender, derivedId, ledgerFilePath, withLineHash } from '../../ledger/index.js'
import type { MisbehaviourEvidence } from '../../merkle/index.js'

/**
 * Appends proof of a log's misbehaviour to `coordination/conflicts.jsonl` (spec §9: conflicts are
 * explicit records). The id derives from the two checkpoints, so one conflict is one id.
 */
export async function appendConflict (dataDir: string, evidence: MisbehaviourEvidence, now: number): Promise<string> {
  const [a, b] = evidence.checkpoints
  const id = derivedId('conflict', 'isnad/conflict', [evidence.type, a.signature, b.signature])
  const appender = new JsonlAppender(ledgerFilePath(dataDir, 'conflicts'))
  try {
    await appender.appendObjects([withLineHash({
      id,
      kind: `checkpoint_${evidence.type}`,
      log: evidence.log,
      ts: new Date(now).toISOString(),
      evidence
    })])
  } finally {
    await appender.close()
  }
  return id
}

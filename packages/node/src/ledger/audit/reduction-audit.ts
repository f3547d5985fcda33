import { LEDGER_FILES } from '../index.js'
import { checkReductions, type ViewLineRef } from '../object-views/index.js'
import type { AuditContext } from './audit-context.js'
import type { OperationalFacts } from './operational.js'

/**
 * The views against `coordination/reducers.jsonl` (docs/views.md, "Reductions"): each state a reducer
 * line names must be reproduced by the view lines it names (`reduction_unresolved` otherwise), and
 * the line readers take for each id, the newest of its shard, must be a state a reducer line names
 * (`reduction_unrecorded` otherwise). Both files were read once already (auditOperational,
 * auditViews); this compares what they held.
 */

const MISSING: Readonly<Record<'object' | 'attachment' | 'state', string>> = {
  object: 'no line of the object with the hash it names is in that shard',
  attachment: 'no line of its attachment with the hash it names is in the attach shard',
  state: 'no line of the object, with or without an attachment line, gives that reduction id'
}

export function auditReductions (ctx: AuditContext, facts: OperationalFacts, views: ReadonlyMap<string, readonly ViewLineRef[]>): void {
  const { unresolved, unrecorded } = checkReductions({ reducers: facts.reducers, views, settled: facts.settled })
  for (const u of unresolved) {
    ctx.sink.add({
      kind: 'reduction_unresolved',
      file: LEDGER_FILES.reducers,
      offset: u.offset,
      line: u.line,
      message: `line ${u.line}: reduction ${u.reduction} of ${u.object} (${u.shard}${u.memory === undefined ? '' : `, memory ${u.memory}`}): ${MISSING[u.missing]}`,
      refs: [u.reduction, u.object, ...(u.memory === undefined ? [] : [u.memory])]
    })
  }
  for (const u of unrecorded) {
    ctx.sink.add({
      kind: 'reduction_unrecorded',
      file: u.file,
      offset: u.offset,
      line: u.line,
      message: `line ${u.line}: the newest line of ${u.id} (${u.hash}${u.memory === undefined ? '' : `, memory ${u.memory}`}) is a state no line of ${LEDGER_FILES.reducers} names`,
      refs: [u.id, u.hash, ...(u.memory === undefined ? [] : [u.memory])]
    })
  }
}

import { stat } from 'node:fs/promises'
import type { AddAnchorInput } from '../anchor/index.js'
import { IsnadError } from '../errors/index.js'
import type { CommandContext } from './command-context.js'

/*
 * Refusals before the writing session (docs/threat-model.md, "Damage to the data directory"): a command that will be refused must leave the
 * data directory as it was, and opening a node for writing appends instance, lease and lifecycle
 * lines. So what can be checked with a read-only node, or with no node at all, is checked first.
 * Through a daemon the checks are the daemon's, and nothing here opens the data directory.
 */

/** NOT_FOUND unless the memory is stored: `show` only reads, so it opens the node read-only (or asks the daemon). */
export async function assertMemoryStored (ctx: CommandContext, memory: string): Promise<void> {
  await ctx.call('show', { id: memory })
}

/** An anchor's local file (the same NOT_FOUND / USAGE as the node's), and its memory. */
export async function assertAnchorable (ctx: CommandContext, input: AddAnchorInput): Promise<void> {
  if (input.source === 'file' && await ctx.daemon() === null) {
    const info = await stat(input.path).catch((cause: unknown) => { throw new IsnadError('NOT_FOUND', `no file ${input.path}`, { cause }) })
    if (!info.isFile()) throw new IsnadError('USAGE', `${input.path} is not a regular file`)
  }
  await assertMemoryStored(ctx, input.memory)
}

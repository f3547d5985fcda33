import type { Command } from 'commander'
import { ATTESTATION_VERDICTS, type AttestationVerdict } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { inputFor, runParsed, specOf, type OperationOutput } from '../invoke.js'
import { emit } from '../output.js'
import { assertMemoryStored } from '../refusals.js'
import { choice, collect } from '../option-parsers.js'
import { renderView } from '../../operations/index.js'

export function registerAttest (program: Command, context: (cmd: Command) => CommandContext): void {
  program.command('attest')
    .description('witness a stored memory as a local agent: confirm, dispute or partial')
    .argument('<memory>', 'the memory id (CID)')
    .argument('<verdict>', ATTESTATION_VERDICTS.join(' | '), choice(ATTESTATION_VERDICTS))
    .option('-n, --notes <text>', 'the witness\'s comments')
    .option('--claim <text>', 'for partial: an aspect the witness confirms (repeatable)', collect)
    .option('--as <did>', 'attest with this key instead of the default')
    .option('-q, --quiet', 'print only the attestation\'s id')
    .action(async (memory: string, verdict: AttestationVerdict, opts: { notes?: string, claim?: string[], as?: string, quiet?: boolean }, cmd: Command) => {
      const ctx = context(cmd)
      const input = await inputFor('attest', {
        id: memory,
        verdict,
        ...(opts.notes === undefined ? {} : { notes: opts.notes }),
        ...(opts.claim === undefined ? {} : { claims: opts.claim }),
        ...(opts.as === undefined ? {} : { as: opts.as })
      })
      await ctx.signerDid(opts.as)
      await assertMemoryStored(ctx, memory)
      const result = await runParsed(ctx, await specOf('attest'), input) as OperationOutput<'attest'>
      emit(ctx.out, result, () => opts.quiet === true ? result.attestation : `attestation ${result.attestation}\n\n${renderView(result.memory)}`)
    })
}

import type { Command } from 'commander'
import { IsnadError } from '../../errors/index.js'
import { readPolicy } from '../../ledger/meta/index.js'
import { nodePaths } from '../../home/index.js'
import { TRUST_POLICY_NAMES } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { emit } from '../output.js'
import { choice } from '../option-parsers.js'

export function registerTrust (program: Command, context: (cmd: Command) => CommandContext): void {
  const trust = program.command('trust').description('trust scores, computed locally from this node\'s trust roots')

  // explain, reputation and root add / remove / list are generated from the table (table-commands.ts).
  trust.command('root').description('the operator\'s trust roots: reputation flows from them (docs/trust.md)')

  trust.command('policy')
    .description('show the node\'s trust policy, or set it and rescore every stored memory under it (the node must not be running)')
    .argument('[name]', `one of ${TRUST_POLICY_NAMES.join(', ')}`, choice(TRUST_POLICY_NAMES))
    .action(async (name: string | undefined, _opts: unknown, cmd: Command) => {
      const ctx = context(cmd)
      const dataDir = nodePaths(ctx.home).data
      if (name !== undefined && await ctx.daemon() !== null) {
        throw new IsnadError('USAGE', 'a node is running on this home: stop it, set the policy, start it again')
      }
      if (name === undefined) {
        const policy = (await readPolicy(dataDir)).trust_policy
        emit(ctx.out, { trust_policy: policy }, () => `trust policy ${policy}`)
        return
      }
      const { setTrustPolicy } = await import('../../node/index.js')
      const policy = await setTrustPolicy(dataDir, name)
      const rescored = await rescoreUnder(ctx.home)
      emit(ctx.out, { trust_policy: policy, rescored }, () => `trust policy ${policy} (${rescored} stored score${rescored === 1 ? '' : 's'} changed)`)
    })
}

/**
 * The index's stored scores (what `query --min-trust` filters and orders by) under the setting just
 * written: a full pass, run here because the setting changes only while no node is running. Also
 * the way to refresh them after the trust roots changed (docs/trust.md §Stored scores).
 */
async function rescoreUnder (home: string): Promise<number> {
  // The node's modules load only for this rescore, not on every CLI start-up.
  const [{ LocalNode, rescoreStoredTrust }, { homeShardCount }] = await Promise.all([import('../../node/index.js'), import('../config/index.js')])
  // Rescored as the daemon scores: with the shard count `isnad start` would take on this home.
  const node = await LocalNode.open({ home, mode: 'write', shardCount: await homeShardCount(home) })
  try {
    return await rescoreStoredTrust(node.store, Date.parse(node.now()), await node.trust.setting())
  } finally {
    await node.close()
  }
}

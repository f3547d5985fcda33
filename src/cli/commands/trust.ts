import type { Command } from 'commander'
import type { TrustExplanation } from '../../operations/index.js'
import { IsnadError } from '../../errors/index.js'
import { readPolicy } from '../../ledger/meta/index.js'
import { nodePaths } from '../../node/home/home-paths.js'
import { agentLines, rootLines, rootsHeadline, type AgentReputation } from '../../reputation/index.js'
import { TRUST_POLICY_NAMES } from '../../schema/index.js'
import type { CommandContext } from '../command-context.js'
import { invoke } from '../invoke.js'
import { runsOperation } from '../operation-command.js'
import { emit } from '../output.js'
import { choice } from '../option-parsers.js'
import { renderTrust } from '../../operations/index.js'

export function registerTrust (program: Command, context: (cmd: Command) => CommandContext): void {
  const trust = program.command('trust').description('trust scores, computed locally from this node\'s trust roots')

  runsOperation(trust.command('explain')
    .description('every factor of a memory\'s score, each witness with its reputation and path from a root, what was refused and why')
    .argument('<memory>', 'the memory id (CID)'), context, {
    operation: 'explainTrust',
    args: ['id'],
    render: renderExplanation
  })

  const root = trust.command('root').description('the operator\'s trust roots: reputation flows from them (docs/trust.md)')
  root.command('add').argument('<did>', 'a did:key this node trusts')
    .action(async (did: string, _opts: unknown, cmd: Command) => { await changeRoots(context(cmd), 'addTrustRoot', { did }) })
  root.command('remove').argument('<did>', 'a current trust root')
    .action(async (did: string, _opts: unknown, cmd: Command) => { await changeRoots(context(cmd), 'removeTrustRoot', { did }) })
  root.command('list')
    .action(async (_opts: unknown, cmd: Command) => { await changeRoots(context(cmd), 'listTrustRoots', {}) })

  runsOperation(trust.command('reputation')
    .description('get_reputation: an agent\'s reputation from this node\'s roots, its rank and its path from a root')
    .argument('<did>', 'the agent'), context, {
    operation: 'reputation',
    args: ['did'],
    render: describeAgent
  })

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
  const { LocalNode, rescoreStoredTrust } = await import('../../node/index.js')
  const node = await LocalNode.open({ home, mode: 'write' })
  try {
    return await rescoreStoredTrust(node.store, Date.parse(node.now()), await node.trust.setting())
  } finally {
    await node.close()
  }
}

async function changeRoots (ctx: CommandContext, name: 'addTrustRoot' | 'removeTrustRoot' | 'listTrustRoots', input: { did?: string }): Promise<void> {
  const { roots } = name === 'listTrustRoots' ? await invoke(ctx, name, {}) : await invoke(ctx, name, { did: input.did ?? '' })
  emit(ctx.out, { roots }, () => rootLines(roots).join('\n'))
}

function describeAgent (rep: AgentReputation): string {
  return agentLines(rep).join('\n')
}

function renderExplanation ({ reputation: { roots, agents }, ...trust }: TrustExplanation): string {
  const lines = [renderTrust(trust), '', rootsHeadline(roots)]
  for (const rep of Object.values(agents)) lines.push(...agentLines(rep).map((l) => `  ${l}`))
  return lines.join('\n')
}

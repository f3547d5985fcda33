import { expect } from 'vitest'
import type { AgentReputation, TrustRoot } from '../../../src/reputation/index.js'
import type { TrustLevel, TrustResult } from '../../../src/schema/index.js'
import { levelRank, trustLevelOf } from '../../../src/trust/index.js'
import { falsehoods } from '../../fixtures/explanation-checker.js'
import { runIsnad } from './run-cli.js'

/*
 * What the trust-scale runs check on a real home (the CLI, against a daemon when one runs): the words
 * of `trust explain` against its `--json` fields, and trust order of a query page (docs/trust.md §1, §6).
 */

export type Explanation = TrustResult & { reputation: { roots: TrustRoot[], agents: Record<string, AgentReputation> } }
export interface Item { id: string, trust: number, level: TrustLevel }

/** `trust explain` in words and in JSON on one home; the words must be true of the JSON. */
export async function checkedExplanation (home: string, memory: string): Promise<Explanation> {
  const json = (await runIsnad(['trust', 'explain', memory, '--json'], { home })).json<Explanation>()
  const text = await runIsnad(['trust', 'explain', memory], { home })
  expect(text.code, text.stderr).toBe(0)
  const { reputation, ...result } = json
  const lines = text.stdout.split('\n').filter((l) => l.trim() !== '')
  // Two runs, two computations of the same evidence: only the time they were made may differ.
  const printedAt = /computed (\S+)\)$/.exec(lines[0] ?? '')?.[1]
  expect(Date.parse(printedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(result.computed_at))
  result.computed_at = printedAt ?? result.computed_at
  expect(falsehoods({ result, roots: reputation.roots, agents: Object.values(reputation.agents), lines }), text.stdout).toEqual([])
  expect(trustLevelOf(json.score), 'the score names the level').toBe(json.level)
  return json
}

/** No item ranks above one of a higher level, and the page is in score order. */
export function expectTrustOrder (items: readonly Item[]): void {
  for (let i = 1; i < items.length; i++) {
    const [above, below] = [items[i - 1] as Item, items[i] as Item]
    expect(levelRank(above.level), `${above.trust} ${above.level} above ${below.trust} ${below.level}`).toBeGreaterThanOrEqual(levelRank(below.level))
    expect(above.trust).toBeGreaterThanOrEqual(below.trust)
  }
  for (const item of items) expect(trustLevelOf(item.trust), `${item.id}: score ${item.trust} is ${item.level}`).toBe(item.level)
}


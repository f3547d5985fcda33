import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeCount, readScenarioFile, type Scenario } from './scenario.js'

/*
 * The built-in scenarios: the YAML files in the package's scenarios/ directory. `isnad sim run`
 * takes either a path or one of their names.
 */

function packageRoot (): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return dir
}

export const BUILTIN_SCENARIO_DIR = join(packageRoot(), 'scenarios')

export async function builtinScenarioNames (): Promise<string[]> {
  const files = await readdir(BUILTIN_SCENARIO_DIR).catch(() => [])
  return files.filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort()
}

/** What `isnad sim scenarios` lists of each built-in scenario. */
export interface ScenarioSummary {
  name: string
  description: string
  nodes: number
  sybils: number
  durationMinutes: number
  sybilSweep: number[]
}

export async function builtinScenarios (): Promise<ScenarioSummary[]> {
  return await Promise.all((await builtinScenarioNames()).map(async (name) => {
    const s = await readScenarioFile(join(BUILTIN_SCENARIO_DIR, `${name}.yaml`))
    return { name, description: s.description, nodes: nodeCount(s.nodes), sybils: s.nodes.sybil, durationMinutes: s.durationMinutes, sybilSweep: s.metrics.sybilSweep }
  }))
}

/** A scenario by path, or by the name of a built-in one. */
export async function loadScenario (pathOrName: string): Promise<Scenario> {
  if (existsSync(pathOrName)) return await readScenarioFile(pathOrName)
  const builtin = join(BUILTIN_SCENARIO_DIR, `${pathOrName}.yaml`)
  return await readScenarioFile(existsSync(builtin) ? builtin : pathOrName)
}

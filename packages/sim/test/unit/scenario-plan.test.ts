import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  BUILTIN_SCENARIO_DIR, ROLES, builtinScenarioNames, composeProject, createPlan, loadScenario, nodeCount, parseScenario, parseScenarioText, rocAuc, verdictOf,
  type Scenario
} from '../../src/index.js'
import { codeOf } from '../../../node/test/fixtures/error-code.js'

const SMALL = { name: 'unit', seed: 5, durationMinutes: 2, nodes: { 'honest-author': 2, 'honest-witness': 5, 'lazy-witness': 1, sybil: 3 } }

describe('scenario format', () => {
  it('fills defaults and accepts YAML and JSON alike', () => {
    const fromJson = parseScenarioText(JSON.stringify(SMALL))
    const fromYaml = parseScenarioText('name: unit\nseed: 5\ndurationMinutes: 2\nnodes: { honest-author: 2, honest-witness: 5, lazy-witness: 1, sybil: 3 }\n')
    expect(fromYaml).toEqual(fromJson)
    expect(fromJson.requests.witnessesPerMemory).toBe(3)
    expect(fromJson.timeScale.realSecondsPerMinute).toBe(60)
    expect(nodeCount(fromJson.nodes)).toBe(11)
  })

  it.each([
    ['no nodes', { ...SMALL, nodes: {} }],
    ['an unknown role', { ...SMALL, nodes: { wizard: 3 } }],
    ['a bad name', { ...SMALL, name: 'Bad Name' }],
    ['a memory by a node that does not exist', { ...SMALL, memories: [{ at: 1, author: 99, truth: true }] }],
    ['a churn event with both leave and join', { ...SMALL, churn: [{ at: 1, leave: 1, join: 1 }] }],
    ['a negative duration', { ...SMALL, durationMinutes: -1 }]
  ])('refuses %s with SCHEMA_INVALID', (_, input) => {
    expect(codeOf(() => parseScenario(input))).toBe('SCHEMA_INVALID')
  })

  it('refuses text that is neither JSON nor YAML with JSON_INVALID', () => {
    expect(codeOf(() => parseScenarioText('{ "name": '))).toBe('JSON_INVALID')
  })

  it('ships the built-in scenarios, all valid', async () => {
    const names = await builtinScenarioNames()
    expect(names).toEqual(expect.arrayContaining(['honest-baseline', 'sybil-ring', 'colluding-witnesses', 'churn-partition', 'bench-100', 'small']))
    for (const name of names) expect((await loadScenario(name)).name, name).toBe(name)
    expect(nodeCount((await loadScenario('honest-baseline')).nodes)).toBe(50)
    const sybil = await loadScenario('sybil-ring')
    expect(sybil.nodes.sybil / nodeCount(sybil.nodes)).toBe(0.2)
  })

  it('hidden-circle (an attack beyond the built-ins): only three of its nine colluders author, and every colluder memory is asked of the circle alone', async () => {
    const hidden = await loadScenario(join(BUILTIN_SCENARIO_DIR, 'attacks/hidden-circle.yaml'))
    const plan = createPlan(hidden)
    const colluderMemories = plan.memories.filter((m) => plan.roles[m.author] === 'colluder')
    expect(new Set(colluderMemories.map((m) => m.author)).size).toBe(3)
    expect(colluderMemories.every((m) => !m.truth && m.answers.every((a) => plan.roles[a.witness] === 'colluder' && a.verdict === 'confirm'))).toBe(true)
    // The six that never author still witness: for the circle, and honestly for everyone else.
    const witnessOnly = plan.roles.flatMap((role, i) => role === 'colluder' && !colluderMemories.some((m) => m.author === i) ? [i] : [])
    expect(witnessOnly).toHaveLength(6)
    expect(colluderMemories.some((m) => m.answers.some((a) => witnessOnly.includes(a.witness)))).toBe(true)
  })
})

describe('plan', () => {
  const scenario: Scenario = parseScenario({ ...SMALL, churn: [{ at: 0.5, leave: 2 }, { at: 1.5, join: 2 }], partitions: [{ at: 1, healAt: 1.8 }] })

  it('is a function of the scenario and its seed', () => {
    expect(createPlan(scenario)).toEqual(createPlan(scenario))
    expect(createPlan({ ...scenario, seed: 6 })).not.toEqual(createPlan(scenario))
  })

  it('gives every node its role, a connected graph, and observers that are honest and never leave', () => {
    const plan = createPlan(scenario)
    expect(plan.roles).toHaveLength(11)
    expect(new Set(plan.roles)).toEqual(new Set(['honest-author', 'honest-witness', 'lazy-witness', 'sybil']))
    const reached = new Set([0])
    for (let grew = true; grew;) {
      grew = false
      for (const [a, b] of plan.edges) if (reached.has(a) !== reached.has(b)) { reached.add(a); reached.add(b); grew = true }
    }
    expect(reached.size).toBe(11)
    const leaving = plan.events.flatMap((e) => e.kind === 'leave' ? e.nodes : [])
    expect(leaving).toHaveLength(2)
    for (const o of plan.observers) {
      expect(['honest-author', 'honest-witness']).toContain(plan.roles[o])
      expect(leaving).not.toContain(o)
    }
    expect(plan.events.map((e) => e.kind)).toEqual(['leave', 'partition', 'join', 'heal'])
  })

  it('makes Sybil memories false and has the ring vouch for them', () => {
    const plan = createPlan(scenario)
    const sybilMemories = plan.memories.filter((m) => plan.roles[m.author] === 'sybil')
    expect(sybilMemories.length).toBeGreaterThan(0)
    for (const m of sybilMemories) {
      expect(m.truth).toBe(false)
      for (const a of m.answers) {
        expect(a.witness).not.toBe(m.author)
        if (plan.roles[a.witness] === 'sybil') expect(a.verdict).toBe('confirm')
      }
    }
  })
})

describe('behaviour', () => {
  const scenario = parseScenario({ ...SMALL, behaviour: { honestAccuracy: 1, camouflageDefectAt: 2, lazyAnswerRate: 0.5, sybilsDisputeHonest: true } })
  const v = (witnessRole: Scenario extends never ? never : typeof ROLES[number], authorRole: typeof ROLES[number], truth: boolean, at = 0, draw = 0.1): string | null =>
    verdictOf({ scenario, witnessRole, authorRole, truth, at, draw })

  it.each([
    ['honest-witness', 'honest-author', true, 0, 0.1, 'confirm'],
    ['honest-witness', 'sybil', false, 0, 0.1, 'dispute'],
    ['lazy-witness', 'sybil', false, 0, 0.1, 'confirm'],
    ['lazy-witness', 'honest-author', true, 0, 0.9, null],
    ['sybil', 'sybil', false, 0, 0.1, 'confirm'],
    ['sybil', 'honest-author', true, 0, 0.1, 'dispute'],
    ['colluder', 'colluder', false, 0, 0.1, 'confirm'],
    ['colluder', 'honest-author', false, 0, 0.1, 'dispute'],
    ['camouflage', 'honest-author', false, 1, 0.1, 'dispute'],
    ['camouflage', 'honest-author', false, 3, 0.1, 'confirm'],
    ['camouflage', 'honest-author', true, 3, 0.1, 'dispute']
  ] as const)('%s on a memory by %s (truth %s, minute %s, draw %s): %s', (witness, author, truth, at, draw, expected) => {
    expect(v(witness, author, truth, at, draw)).toBe(expected)
  })
})

describe('rocAuc', () => {
  it.each([
    [[0.9, 0.8], [0.1, 0.2], 1],
    [[0.1, 0.2], [0.9, 0.8], 0],
    [[0.5, 0.5], [0.5, 0.5], 0.5],
    [[0.3, 0.7], [0.5], 0.5],
    [[0.6, 0.6, 0.2], [0.6, 0.1], 4 / 6]
  ])('AUC of %j against %j is %s', (pos, neg, auc) => {
    expect(rocAuc(pos, neg)).toBeCloseTo(auc, 10)
  })

  it('is NaN with an empty side', () => {
    expect(rocAuc([], [1])).toBeNaN()
  })
})

describe('compose project', () => {
  type Service = { command: string[], volumes?: string[], depends_on?: string[], secrets: string[], restart: string, deploy: { endpoint_mode: string, restart_policy: { condition: string }, placement?: { constraints: string[] } } }
  const project = composeProject(parseScenario(SMALL), { image: 'registry.example/isnad:1' }) as { services: Record<string, Service>, [key: string]: unknown }

  it('has a bootstrap node, one service per node and a driver writing to the named volume results', () => {
    const names = Object.keys(project.services)
    expect(names).toHaveLength(11 + 2)
    expect(names).toContain('bootstrap')
    expect(project.services['node-3']?.command).toEqual(expect.arrayContaining(['sim', 'node', '--index', '3', '--name', 'node-3']))
    expect(project.services.driver?.volumes).toEqual(['results:/sim/results'])
    expect(project.volumes).toEqual({ results: {} })
    expect(project.services.driver?.depends_on).toHaveLength(11)
    expect(project.services.driver?.command).toContain('--print')
  })

  it('is a stack file too: no top-level name, nothing bind-mounted, DNS round robin, every service run once', () => {
    // `docker stack deploy` refuses properties outside the compose 3.x schema ("Additional property name is not allowed").
    expect(Object.keys(project).sort()).toEqual(['networks', 'secrets', 'services', 'version', 'volumes'])
    expect(project.secrets).toEqual({ scenario: { file: './scenario.json' }, 'sim-token': { file: './sim-token' } })
    for (const [name, service] of Object.entries(project.services)) {
      expect(service.volumes?.filter((v) => v.startsWith('.') || v.startsWith('/')) ?? [], name).toEqual([])
      expect(service.secrets, name).toEqual(['scenario', 'sim-token'])
      expect(service.restart, name).toBe('no')
      expect(service.deploy.endpoint_mode, name).toBe('dnsrr')
      expect(service.deploy.restart_policy, name).toEqual({ condition: 'none' })
      expect(service.command.join(' '), name).not.toMatch(/nodes-dir/)
    }
    expect(project.services.driver?.deploy.placement?.constraints).toEqual(['node.role == manager'])
  })
})

import { describe, expect, it } from 'vitest'
import { compactAgents, nameAgent, shortId, type LocalAgent } from '../../../src/dashboard/browser/agents.js'

/* How the dashboard names agents (agents.ts): local keys by label, others by short DID; the header's few. */

const did = (n: number): string => `did:key:z6Mk${String(n).repeat(44).slice(0, 44)}`

describe('nameAgent', () => {
  const agents: LocalAgent[] = [{ did: did(1), label: 'default', default: true }, { did: did(2), default: false }, { did: did(3), label: '  ', default: false }]

  it('names a local key by its label, an unlabelled or blank-labelled one and a stranger by short DID', () => {
    expect(nameAgent(did(1), agents)).toEqual({ did: did(1), name: 'default', local: true })
    expect(nameAgent(did(2), agents)).toEqual({ did: did(2), name: shortId(did(2)), local: true })
    expect(nameAgent(did(3), agents)).toEqual({ did: did(3), name: shortId(did(3)), local: true })
    expect(nameAgent(did(4), agents)).toEqual({ did: did(4), name: shortId(did(4)), local: false })
    expect(shortId(did(4))).toBe(`${did(4).slice(0, 14)}…${did(4).slice(-6)}`)
  })
})

describe('compactAgents', () => {
  it('puts labels first, the default key first among them, and counts what it leaves out', () => {
    const agents: LocalAgent[] = [
      { did: did(1), default: false },
      { did: did(2), label: 'witness', default: false },
      { did: did(3), label: 'main', default: true },
      { did: did(4), label: 'reviewer', default: false },
      { did: did(5), default: false }
    ]
    const { shown, hidden } = compactAgents(agents)
    expect(shown.map((a) => a.name)).toEqual(['main', 'witness', 'reviewer'])
    expect(hidden).toBe(2)
    expect(compactAgents(agents, 10).shown.map((a) => a.name)).toEqual(['main', 'witness', 'reviewer', shortId(did(1)), shortId(did(5))])
  })

  it('shows an unlabelled default key before other unlabelled keys', () => {
    const { shown, hidden } = compactAgents([{ did: did(1), default: false }, { did: did(2), default: true }], 1)
    expect(shown.map((a) => a.did)).toEqual([did(2)])
    expect(hidden).toBe(1)
  })
})

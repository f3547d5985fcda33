import type { Role, Scenario } from './scenario.js'

/*
 * How each role answers a witness request (docs/simulation.md, "Roles"). Pure: the random draw is
 * passed in, so the plan decides every answer before the run.
 */

export type PlannedVerdict = 'confirm' | 'dispute'

export interface VerdictInput {
  scenario: Scenario
  witnessRole: Role
  authorRole: Role
  /** The memory's ground truth. */
  truth: boolean
  /** Simulated minute the memory is published. */
  at: number
  /** Uniform in [0, 1), drawn by the plan for this (memory, witness). */
  draw: number
  /** The witness was drawn for the memory (the witness draw) rather than asked by a request. */
  drawn?: boolean
}

/** Roles that vouch for their own kind's memories and judge honestly elsewhere. */
const CIRCLE_ROLES: ReadonlySet<Role> = new Set(['colluder', 'grinder', 'withholder', 'late-publisher', 'flooder'])

/** What a careful witness says: right with probability `honestAccuracy`. */
function judge (truth: boolean, accuracy: number, draw: number): PlannedVerdict {
  const right = draw < accuracy
  return truth === right ? 'confirm' : 'dispute'
}

/** Whether `role` is one of the circles that vouch for their own kind (colluders and the draw's adversaries). */
export function isCircleRole (role: Role): boolean {
  return CIRCLE_ROLES.has(role)
}

export function verdictOf (input: VerdictInput): PlannedVerdict | null {
  const { scenario, witnessRole, authorRole, truth, at, draw, drawn = false } = input
  const { behaviour } = scenario
  switch (witnessRole) {
    // Rubber-stamps what it answers, and answers only part of what it is asked.
    case 'lazy-witness': return draw < behaviour.lazyAnswerRate ? 'confirm' : null
    // The ring vouches for itself and, when told to, runs down everyone else's true claims.
    case 'sybil':
      if (authorRole === 'sybil') return 'confirm'
      return behaviour.sybilsDisputeHonest && truth ? 'dispute' : null
    // Withholders vouch for each other and, drawn on anyone else's memory, stay silent (answering
    // requests honestly, to keep a good name).
    case 'withholder':
      if (authorRole === 'withholder') return 'confirm'
      return drawn ? null : judge(truth, behaviour.honestAccuracy, draw)
    // Colluders (and the grinders, late publishers and flooders) vouch for each other and behave
    // elsewhere, to keep a good name.
    case 'colluder':
    case 'grinder':
    case 'late-publisher':
    case 'flooder':
      return authorRole === witnessRole ? 'confirm' : judge(truth, behaviour.honestAccuracy, draw)
    // Honest until the defection minute, then the opposite of the truth (and loyal to its own kind).
    case 'camouflage':
      if (at < behaviour.camouflageDefectAt) return judge(truth, behaviour.honestAccuracy, draw)
      return authorRole === 'camouflage' || !truth ? 'confirm' : 'dispute'
    default: return judge(truth, behaviour.honestAccuracy, draw)
  }
}

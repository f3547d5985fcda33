import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { registerStart, spotChecksOn, SPOT_CHECKS_ENV } from '../../../src/cli/commands/start.js'
import { IsnadError } from '../../../src/errors/index.js'
import type { CommandContext } from '../../../src/cli/command-context.js'

/*
 * `isnad start` spot-checks by default (docs/trust.md §5a): `--no-spot-checks` turns it off, so does
 * $ISNAD_SPOT_CHECKS=off when no flag is given; a flag given beats the environment.
 */

describe('isnad start: spot checks on by default', () => {
  it('is on without flag or environment', () => {
    expect(spotChecksOn(undefined, undefined)).toBe(true)
    expect(spotChecksOn(undefined, '')).toBe(true)
  })

  it('follows --no-spot-checks and --spot-checks over the environment', () => {
    expect(spotChecksOn(false, undefined)).toBe(false)
    expect(spotChecksOn(false, 'on')).toBe(false)
    expect(spotChecksOn(true, 'off')).toBe(true)
  })

  it(`reads $${SPOT_CHECKS_ENV} without a flag: on/off, 1/0, true/false, yes/no`, () => {
    for (const on of ['on', 'ON', '1', 'true', 'yes', ' on ']) expect(spotChecksOn(undefined, on), on).toBe(true)
    for (const off of ['off', 'Off', '0', 'false', 'no']) expect(spotChecksOn(undefined, off), off).toBe(false)
  })

  it('refuses any other value with USAGE', () => {
    expect(() => spotChecksOn(undefined, 'maybe')).toThrow(IsnadError)
    try {
      spotChecksOn(undefined, 'maybe')
    } catch (err) {
      expect((err as IsnadError).code).toBe('USAGE')
    }
  })

  it('declares both flags, and commander reports whether one was given (no flag: on)', () => {
    const sources: Array<string | undefined> = []
    const values: unknown[] = []
    for (const argv of [[], ['--no-spot-checks'], ['--spot-checks']]) {
      const program = new Command().exitOverride()
      registerStart(program, () => ({}) as CommandContext)
      const start = program.commands.find((c) => c.name() === 'start')!
      start.action((opts: { spotChecks?: boolean }, cmd: Command) => { sources.push(cmd.getOptionValueSource('spotChecks')); values.push(opts.spotChecks) })
      program.parse(['node', 'isnad', 'start', ...argv])
    }
    // Without a flag commander leaves the value unset: the environment, then the default (on), decide.
    expect(values).toEqual([undefined, false, true])
    expect(sources).toEqual([undefined, 'cli', 'cli'])
    expect(values.map((v, k) => spotChecksOn(sources[k] === 'cli' ? v as boolean : undefined, undefined))).toEqual([true, false, true])
  })
})

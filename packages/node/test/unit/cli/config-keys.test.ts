import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProgram } from '../../../src/cli/index.js'
import { createOutput } from '../../../src/cli/output.js'
import { CONFIG_KEYS, configKeyNamed, envConfigValue, parseConfigValue, withStartConfig } from '../../../src/cli/config/index.js'
import { IsnadError } from '../../../src/errors/index.js'
import { WORKSPACE } from '../../fixtures/build-dist.js'

/*
 * The configuration file's keys are `isnad start`'s flags (docs/configuration.md): the same names,
 * filling the same commander attributes, each with its environment variable, so a flag added to
 * `start` without a key (or a key left behind by a flag removed) fails here.
 */

function startCommand (): ReturnType<typeof createProgram>['commands'][number] {
  const start = createProgram(createOutput(false), () => {}).commands.find((c) => c.name() === 'start')
  if (start === undefined) throw new Error('no start command')
  return start
}

function codeOf (fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (err) {
    return err instanceof IsnadError ? err.code : String(err)
  }
  return undefined
}

describe('configuration keys', () => {
  it('are exactly the flags of isnad start, each filling the attribute the flag fills', () => {
    const flags = new Map(startCommand().options.map((o) => [(o.long ?? '').replace(/^--(no-)?/, ''), o.attributeName()]))
    expect(CONFIG_KEYS.map((k) => k.key).sort()).toEqual([...flags.keys()].sort())
    for (const key of CONFIG_KEYS) expect(key.option, key.key).toBe(flags.get(key.key))
  })

  it('each have the environment variable ISNAD_<KEY>', () => {
    expect(configKeyNamed('listen')?.env).toBe('ISNAD_LISTEN')
    expect(configKeyNamed('api-port')?.env).toBe('ISNAD_API_PORT')
    expect(configKeyNamed('log-level')?.env).toBe('ISNAD_LOG_LEVEL') // the variable the log already read
    for (const key of CONFIG_KEYS) expect(key.env, key.key).toBe(`ISNAD_${key.key.toUpperCase().replaceAll('-', '_')}`)
  })

  it('each have a row in docs/configuration.md, with their environment variable', () => {
    const doc = readFileSync(join(WORKSPACE, 'docs/configuration.md'), 'utf8')
    const rows = doc.split('\n').filter((line) => line.startsWith('| `'))
    for (const key of CONFIG_KEYS) {
      expect(rows.some((row) => row.startsWith(`| \`${key.key}\` |`) && row.includes(`\`${key.env}\``)), key.key).toBe(true)
    }
  })

  it('turn words into typed values, and refuse bad ones with USAGE naming the key', () => {
    const key = (name: string): NonNullable<ReturnType<typeof configKeyNamed>> => configKeyNamed(name) ?? expect.fail(name)
    expect(parseConfigValue(key('listen'), ['/ip4/127.0.0.1/tcp/4601'], 'listen')).toEqual(['/ip4/127.0.0.1/tcp/4601'])
    expect(parseConfigValue(key('api-port'), ['4603'], 'api-port')).toBe(4603)
    expect(parseConfigValue(key('mdns'), ['on'], 'mdns')).toBe(true)
    expect(parseConfigValue(key('mdns'), ['OFF'], 'mdns')).toBe(false)
    expect(parseConfigValue(key('log-level'), ['Debug'], 'log-level')).toBe('debug')
    expect(parseConfigValue(key('anchor-dir'), ['docs'], 'anchor-dir', '/srv/home')).toEqual(['/srv/home/docs'])
    const refusals: Array<[string, string[]]> = [
      ['listen', ['not-a-multiaddr']], ['bootstrap', ['/ip4/10.0.0.1/tcp/4501']], ['api-port', ['0']], ['api-port', ['65536']],
      ['api-port', ['4603', '4604']], ['api-port', ['x']], ['heartbeat', ['-1']], ['mdns', ['maybe']], ['log-level', ['loud']],
      ['auto-confirm-from', ['did:web:example.com']], ['api-host-name', ['host:80']], ['anchor-url-allow', ['10.0.0.0/99']]
    ]
    for (const [name, words] of refusals) expect(codeOf(() => parseConfigValue(key(name), words, name)), `${name} ${words.join(' ')}`).toBe('USAGE')
  })

  it('read lists from the environment comma-separated, and an empty variable as unset', () => {
    const listen = configKeyNamed('listen') ?? expect.fail('listen')
    expect(envConfigValue(listen, { ISNAD_LISTEN: '/ip4/127.0.0.1/tcp/1, /ip4/127.0.0.1/tcp/2/ws' })).toEqual(['/ip4/127.0.0.1/tcp/1', '/ip4/127.0.0.1/tcp/2/ws'])
    expect(envConfigValue(listen, { ISNAD_LISTEN: '' })).toBeUndefined()
    expect(codeOf(() => envConfigValue(configKeyNamed('api-port') ?? expect.fail('api-port'), { ISNAD_API_PORT: 'eighty' }))).toBe('USAGE')
  })

  it('merge flags over the environment over the file (no file here: the defaults stay)', async () => {
    const { options, sources } = await withStartConfig('/nonexistent-isnad-home', { apiPort: 1111, listen: undefined as string[] | undefined },
      (option) => option === 'apiPort', { ISNAD_API_PORT: '2222', ISNAD_LISTEN: '/ip4/127.0.0.1/tcp/3333' })
    expect(options).toMatchObject({ apiPort: 1111, listen: ['/ip4/127.0.0.1/tcp/3333'] })
    expect(sources).toEqual({ 'api-port': 'flag', listen: 'env' })
  })
})

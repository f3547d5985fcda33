import { describe, expect, it } from 'vitest'
import { IsnadError } from '../../../src/errors/index.js'
import { LOG_LEVELS, createLogger, parseLogLevel, type LogLevel } from '../../../src/log/index.js'

const NOW = new Date('2026-11-27T08:42:36.123Z')

function capture (level?: LogLevel): { lines: () => Array<Record<string, unknown>>, raw: string[], logger: ReturnType<typeof createLogger> } {
  const raw: string[] = []
  const logger = createLogger({ ...(level === undefined ? {} : { level }), write: (line) => { raw.push(line) }, clock: () => NOW })
  return { raw, logger, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>) }
}

describe('the daemon log (src/log)', () => {
  it('writes one JSON object per line: time, level and msg first, then the fields', () => {
    const { raw, logger } = capture()
    logger.info('peer connected', { peer: '12D3KooW', peers: 1 })
    expect(raw).toEqual(['{"time":"2026-11-27T08:42:36.123Z","level":"info","msg":"peer connected","peer":"12D3KooW","peers":1}\n'])
  })

  it('writes a level and the more severe ones, nothing below it; info by default', () => {
    for (const level of LOG_LEVELS) {
      const { lines, logger } = capture(level)
      for (const at of LOG_LEVELS) logger[at](at)
      expect(lines().map((l) => l.msg), level).toEqual(LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(level) + 1))
    }
    const { lines, logger } = capture()
    expect(logger.level).toBe('info')
    logger.debug('hidden')
    logger.info('shown')
    expect(lines().map((l) => l.msg)).toEqual(['shown'])
    expect(logger.isEnabled('debug')).toBe(false)
  })

  it('keeps a value from the network on its line: control characters are escaped, reserved names cannot be forged', () => {
    const { raw, lines, logger } = capture()
    logger.warn('record received', { summary: 'a\n{"level":"error"}\r\u001b[31m', level: 'error', msg: 'forged', time: 'then' })
    expect(raw).toHaveLength(1)
    expect(raw[0]?.slice(0, -1)).not.toMatch(/[\n\r\u001b]/)
    expect(lines()[0]).toEqual({ time: NOW.toISOString(), level: 'warn', msg: 'record received', summary: 'a\n{"level":"error"}\r\u001b[31m' })
  })

  it('gives an error its code and message, and its stack only at debug', () => {
    const err = new IsnadError('PEER_UNREACHABLE', 'cannot connect')
    const info = capture('info')
    info.logger.error('failed', { error: err, plain: new Error('boom') })
    expect(info.lines()[0]).toMatchObject({ error: { code: 'PEER_UNREACHABLE', message: 'cannot connect' }, plain: { message: 'boom' } })
    expect(JSON.stringify(info.lines()[0])).not.toContain('stack')
    const debug = capture('debug')
    debug.logger.error('failed', { error: err })
    expect((debug.lines()[0]?.error as { stack?: string }).stack).toContain('logger.test.ts')
  })

  it('binds fields in children, serialises bigints and byte arrays, and survives a cycle', () => {
    const { lines, logger } = capture()
    const child = logger.child({ component: 'api' })
    child.info('request', { size: 10n, bytes: new Uint8Array(3), absent: undefined })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    child.info('cycle', { cyclic })
    expect(lines()).toEqual([
      { time: NOW.toISOString(), level: 'info', msg: 'request', component: 'api', size: '10', bytes: { bytes: 3 } },
      { time: NOW.toISOString(), level: 'info', msg: 'cycle', log_error: 'fields could not be serialised' }
    ])
  })

  it('parses --log-level and $ISNAD_LOG_LEVEL, USAGE for anything else', () => {
    expect(parseLogLevel('DEBUG')).toBe('debug')
    expect(parseLogLevel(' warn ')).toBe('warn')
    expect(() => parseLogLevel('verbose')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('error, warn, info, debug') }))
  })
})

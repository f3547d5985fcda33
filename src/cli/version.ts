import { readFileSync } from 'node:fs'
import { IsnadError } from '../errors/index.js'

/**
 * The package's version, read from its package.json (the one declaration of it), which sits three
 * folders above this file both in the clone (dist/src/cli/) and in an installed package.
 */
export function packageVersion (): string {
  const manifest = new URL('../../../package.json', import.meta.url)
  const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'))
  const version = typeof parsed === 'object' && parsed !== null && 'version' in parsed ? parsed.version : undefined
  if (typeof version !== 'string' || version === '') throw new IsnadError('IO_ERROR', `${manifest.pathname} names no version`)
  return version
}

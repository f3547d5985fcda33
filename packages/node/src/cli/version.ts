import { readFileSync } from 'node:fs'
import { IsnadError } from '../errors/index.js'

/**
 * The package's version, read from its package.json (the one declaration of it): the nearest one
 * above this file named `isnad`, which is two folders up when run from the sources (src/cli/) and
 * three from the build (dist/src/cli/, in the clone or an installed package).
 */
export function packageVersion (): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    const manifest = new URL(up, import.meta.url)
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(manifest, 'utf8'))
    } catch {
      continue
    }
    if (typeof parsed !== 'object' || parsed === null || !('name' in parsed) || parsed.name !== 'isnad') continue
    if ('version' in parsed && typeof parsed.version === 'string' && parsed.version !== '') return parsed.version
  }
  throw new IsnadError('IO_ERROR', `no package.json of isnad with a version above ${new URL('.', import.meta.url).pathname}`)
}

import { existsSync, readFileSync } from 'node:fs'
import { stripTypeScriptTypes, type LoadHook, type ResolveHook } from 'node:module'
import { fileURLToPath } from 'node:url'

/*
 * Module hooks for a worker thread started from the TypeScript sources (vitest runs src/ as it is;
 * see module-worker.ts). A relative `./x.js` import whose file does not exist resolves to `./x.ts`
 * beside it, and `.ts` files are compiled by Node's own TypeScript transform. Never used by the
 * compiled package, where every `.js` file exists. Node loads this file itself by type stripping, so
 * it holds erasable syntax only.
 */

function isLocalFile (url: string | undefined): url is string {
  return url?.startsWith('file:') === true
}

export const resolve: ResolveHook = (specifier, context, next) => {
  if (specifier.startsWith('.') && specifier.endsWith('.js') && isLocalFile(context.parentURL)) {
    const target = new URL(specifier, context.parentURL)
    const source = new URL(target.href.replace(/\.js$/, '.ts'))
    if (!existsSync(fileURLToPath(target)) && existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true }
  }
  return next(specifier, context)
}

export const load: LoadHook = (url, context, next) => {
  if (!isLocalFile(url) || !url.endsWith('.ts')) return next(url, context)
  const source = stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'), { mode: 'transform', sourceUrl: url })
  return { format: 'module', source, shortCircuit: true }
}

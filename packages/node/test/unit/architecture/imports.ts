import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, sep } from 'node:path'

/* The imports of a TypeScript file, as the architecture tests read them (a regular expression over its text). */

export const posix = (path: string): string => path.split(sep).join('/')

export interface Import {
  /** The importing file, relative to the folder scanned (src/, or the repository) with `/`. */
  file: string
  /** The imported file, relative to the same folder (`.ts`), or the package / `node:` specifier. */
  target: string
  specifier: string
  typeOnly: boolean
}

const IMPORT = /^(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm

export function importsOf (file: string, text: string): Import[] {
  const found: Import[] = []
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[4] ?? match[5] as string
    // `import type { … }`, or `import { type A, type B }` with every name a type: erased at build.
    const names = match[3] ?? ''
    const typeOnly = match[2] !== undefined || (/^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(',').every((n) => n.trim() === '' || n.trim().startsWith('type ')))
    const target = specifier.startsWith('.')
      ? posix(normalize(join(dirname(file), specifier))).replace(/\.js$/, '.ts')
      : specifier
    found.push({ file, target, specifier, typeOnly })
  }
  return found
}

/** The .ts sources under `dir` (relative to it, with `/`), each with its text: not what a build or an install put there. */
export function typeScriptUnder (dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split(sep).some((part) => part === 'node_modules' || part === 'dist'))
    .map(posix).sort()
  return new Map(files.map((file) => [file, readFileSync(join(dir, file), 'utf8')]))
}

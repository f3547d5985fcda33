import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Child processes of the ledger tests run the compiled ledger from dist/. `npm test` builds first;
 * when dist/ is missing or older than the sources it needs (vitest run on its own after an edit),
 * this builds it once (a full `tsc -p tsconfig.json`, about 10 s).
 */

export const REPO = join(import.meta.dirname, '../../..')
const SOURCES = ['src/ledger', 'src/schema', 'src/errors']

function mtimes (dir: string, ext: string): number[] {
  return readdirSync(join(REPO, dir)).filter((f) => f.endsWith(ext)).map((f) => statSync(join(REPO, dir, f)).mtimeMs)
}

export function ensureBuiltLedger (): void {
  let oldestBuilt = 0
  try {
    oldestBuilt = Math.min(...SOURCES.map((s) => {
      const built = mtimes(`dist/${s}`, '.js')
      return built.length === 0 ? 0 : Math.min(...built)
    }))
  } catch {
    oldestBuilt = 0
  }
  const newestSource = Math.max(...SOURCES.map((s) => Math.max(...mtimes(s, '.ts'))))
  if (oldestBuilt >= newestSource) return
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(REPO, 'tsconfig.json')], { stdio: 'pipe' })
  } catch {
    // tsc exits non-zero on type errors elsewhere in the tree but still emits; the import checks.
  }
}

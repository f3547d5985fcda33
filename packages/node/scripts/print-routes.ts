/**
 * Writes protocols/http-api.md §3's route table from the table of operations (src/operations/table).
 *
 *   npm run schemas                                         build, then write it (with the JSON Schemas)
 *   node dist/scripts/generate-http-api-doc.js --check      exit 1 if the committed document differs
 *
 * test/unit/api/http-api-doc.test.ts regenerates it in memory and fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { withRouteTable } from '../src/operations/table/doc.js'

/** dist/scripts/ → the repository root (the script runs compiled). */
const FILE = new URL('../../protocols/http-api.md', import.meta.url)

function main (): void {
  const current = readFileSync(FILE, 'utf8')
  const next = withRouteTable(current)
  if (next === current) return
  if (process.argv.includes('--check')) {
    console.error(`${fileURLToPath(FILE)} is stale: run npm run schemas`)
    process.exitCode = 1
    return
  }
  writeFileSync(FILE, next)
  console.error(`wrote ${fileURLToPath(FILE)}`)
}

main()

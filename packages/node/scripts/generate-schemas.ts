/**
 * Writes the JSON Schemas of record-v1 (§9) to protocols/schemas/<name>.schema.json, generated from
 * the zod schemas of src/schema with zod's own z.toJSONSchema.
 *
 *   npm run schemas                                         build, then write the files
 *   node dist/scripts/generate-schemas.js --check           exit 1 if a committed file differs
 *
 * test/unit/schema/json-schemas.test.ts regenerates them in memory and fails when they are stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { generateKeyEventJsonSchemas } from '../src/key-events/key-event-json-schema.js'
import { generateJsonSchemas } from '../src/schema/json-schema.js'

/** dist/scripts/ → the repository root (the script runs compiled). */
const ROOT = new URL('../../', import.meta.url)
const OUTPUT = new URL('protocols/schemas/', ROOT)

function read (file: URL): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function main (): void {
  const check = process.argv.includes('--check')
  mkdirSync(OUTPUT, { recursive: true })
  let stale = 0
  for (const { fileName, text } of [...generateJsonSchemas(), ...generateKeyEventJsonSchemas()]) {
    const file = new URL(fileName, OUTPUT)
    if (read(file) === text) continue
    if (check) {
      console.error(`${fileURLToPath(file)} is stale: run npm run schemas`)
      stale++
    } else {
      writeFileSync(file, text)
      console.error(`wrote ${fileURLToPath(file)}`)
    }
  }
  if (stale > 0) process.exitCode = 1
}

main()

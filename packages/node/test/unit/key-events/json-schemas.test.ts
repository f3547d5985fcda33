import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateKeyEventJsonSchemas } from '../../../src/key-events/index.js'

const DIR = new URL('../../../protocols/schemas/', import.meta.url)

describe('protocols/schemas for key events (record-v1 §13.5)', () => {
  for (const { fileName, text } of generateKeyEventJsonSchemas()) {
    it(`${fileName} is up to date`, () => {
      let committed: string | null = null
      try { committed = readFileSync(new URL(fileName, DIR), 'utf8') } catch {}
      expect(committed, `protocols/schemas/${fileName} is stale or missing: run \`npm run schemas\``).toBe(text)
    })
  }
})

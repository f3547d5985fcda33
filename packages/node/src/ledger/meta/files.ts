import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { diskFullError, isDiskFull, IsnadError } from '../../errors/index.js'
import { FORMER_TRUST_POLICY_NAMES } from '../../schema/index.js'
import { writeFileAtomic } from '../../fs/index.js'
import { META_DIR, META_FILE_NAMES, type MetaFileName } from './constants.js'
import { buildEventJsonSchema, buildObjectJsonSchema } from './json-schemas.js'
import { buildPolicy, NodePolicySchema, type NodePolicy, type PolicyInput } from './policy.js'
import { buildSpecFile } from './spec-file.js'

/** The four files of `_meta/` (Memory Format Spec V3.1 §3), as JSON values. */
export interface MetaFiles {
  'spec.json': Record<string, unknown>
  'policy.json': NodePolicy
  'event_schema.json': Record<string, unknown>
  'object_schema.json': Record<string, unknown>
}

export interface MetaFilesInit {
  /** The node's default scope (policy.json `default_scope`). @default DEFAULT_SCOPE */
  scope?: string
  policy?: PolicyInput
}

export function buildMetaFiles (init: MetaFilesInit = {}): MetaFiles {
  const policy = init.scope === undefined ? init.policy : { ...init.policy, default_scope: init.scope }
  return {
    'spec.json': buildSpecFile(),
    'policy.json': buildPolicy(policy),
    'event_schema.json': buildEventJsonSchema(),
    'object_schema.json': buildObjectJsonSchema()
  }
}

/** The exact text of a meta file: 2-space JSON and a final newline (readable, diffable, greppable). */
export function metaFileText (value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n'
}

export interface WriteMetaResult {
  written: MetaFileName[]
  unchanged: MetaFileName[]
}

/**
 * Writes `<dataDir>/_meta/*` where a file is missing or differs from what this code generates, each
 * atomically; unchanged files are not touched (their mtime says when the contracts last changed).
 */
export async function writeMetaFiles (dataDir: string, init: MetaFilesInit = {}): Promise<WriteMetaResult> {
  const files = buildMetaFiles(init)
  const result: WriteMetaResult = { written: [], unchanged: [] }
  for (const name of META_FILE_NAMES) {
    const path = join(dataDir, META_DIR, name)
    const text = metaFileText(files[name])
    if (await readIfExists(path) === text) {
      result.unchanged.push(name)
      continue
    }
    try {
      await writeMetaFile(path, text)
    } catch (err) {
      throw isDiskFull(err)
        ? diskFullError(`${META_DIR}/${name}`, err, { file: `${META_DIR}/${name}` })
        : new IsnadError('IO_ERROR', `cannot write ${META_DIR}/${name}`, { cause: err, details: { file: `${META_DIR}/${name}` } })
    }
    result.written.push(name)
  }
  return result
}

/**
 * Reads `_meta/policy.json`. Codes: NOT_INITIALIZED (missing), JSON_INVALID (not JSON),
 * SCHEMA_INVALID (not a policy); each names the file in the message and in `details.file`.
 */
export async function readPolicy (dataDir: string): Promise<NodePolicy> {
  const file = `${META_DIR}/policy.json`
  const text = await readIfExists(join(dataDir, file))
  if (text === undefined) throw new IsnadError('NOT_INITIALIZED', `${file} is missing: run \`isnad init\``, { details: { file } })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new IsnadError('JSON_INVALID', `${file} is not valid JSON`, { cause: err, details: { file } })
  }
  const parsed = NodePolicySchema.safeParse(withCurrentPolicyName(value))
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
  const first = issues[0]
  throw new IsnadError('SCHEMA_INVALID', `${file} is not a valid node policy: ${first?.path ?? ''}: ${first?.message ?? ''}`, { details: { file, issues } })
}

/**
 * A stored setting naming a renamed trust policy (FORMER_TRUST_POLICY_NAMES) reads as the policy's
 * current name, so a home written before the rename opens as it was set; the file is rewritten with
 * the new name the next time the setting changes.
 */
function withCurrentPolicyName (value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('trust_policy' in value)) return value
  const name = (value as { trust_policy: unknown }).trust_policy
  const current = typeof name === 'string' && Object.hasOwn(FORMER_TRUST_POLICY_NAMES, name) ? FORMER_TRUST_POLICY_NAMES[name] : undefined
  return current === undefined ? value : { ...value, trust_policy: current }
}

async function readIfExists (path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw new IsnadError('IO_ERROR', `cannot read ${path}`, { cause: err, details: { file: path } })
  }
}

/** `_meta/` files are readable by anyone who can read the data directory. */
const META_FILE_MODE = 0o644

/**
 * Replaces the `_meta/` file `path` with `text` atomically (src/fs writeFileAtomic: temp file, fsync,
 * rename, fsync of the directory): a reader sees the old file or the new one, never a half-written one.
 */
export async function writeMetaFile (path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFileAtomic(path, text, META_FILE_MODE)
}

import { execFile } from 'node:child_process'
import { access, mkdir, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/*
 * An earlier commit of this repository, built beside the current one, for a figure whose baseline is
 * that build measured in the same run (figure 8a: gossip latency against the build before the
 * pipeline). The commit's tree is written out (`git archive`) in the temp directory, given this
 * checkout's node_modules (the same dependencies, so only isnad's code differs) and compiled once
 * (`tsc -b`, the build less the dashboard bundle, which no bench loads); a later run reuses it.
 */

const run = promisify(execFile)

/** The checkout this bench runs from: the repository root above dist/bench/. */
async function repositoryRoot (): Promise<string> {
  const { stdout } = await run('git', ['rev-parse', '--show-toplevel'], { cwd: new URL('.', import.meta.url) })
  return stdout.trim()
}

async function exists (path: string): Promise<boolean> {
  return await access(path).then(() => true, () => false)
}

/**
 * The root of a built checkout of `ref` (a commit or tag of this repository): its `dist/` holds the
 * bench modules of that commit. Builds it on first use (about a minute), reuses it after.
 */
export async function baselineBuild (ref: string, progress: (text: string) => void): Promise<string> {
  const root = await repositoryRoot()
  const { stdout } = await run('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root })
  const commit = stdout.trim()
  const dir = join(tmpdir(), `isnad-baseline-${commit.slice(0, 12)}`)
  if (await exists(join(dir, 'dist', 'bench', 'network-gossip-threads.js'))) return dir
  progress(`baseline: building ${commit.slice(0, 12)} in ${dir}`)
  await mkdir(dir, { recursive: true })
  await run('sh', ['-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'archive', commit, dir], { cwd: root, maxBuffer: 1 << 24 })
  if (!await exists(join(dir, 'node_modules'))) await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  // tsc emits despite type errors; an older commit may have some against today's dependencies (a
  // declaration naming the linked node_modules' path), which a bench that only runs it can ignore.
  const built = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-b', 'tsconfig.json'], { cwd: dir, maxBuffer: 1 << 24 }).then(() => '', (err: unknown) => String(err))
  if (!await exists(join(dir, 'dist', 'bench', 'network-gossip-threads.js'))) throw new Error(`building ${commit.slice(0, 12)} emitted no bench: ${built}`)
  return dir
}

import { spawn } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { WORKSPACE } from '../../fixtures/build-dist.js'

/** The shell block under "## Five-minute walkthrough" in README.md, exactly as a reader copies it. */
async function walkthroughScript (): Promise<string> {
  const readme = await readFile(`${WORKSPACE}/README.md`, 'utf8')
  const section = readme.slice(readme.indexOf('## Five-minute walkthrough'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1]
  if (block === undefined) throw new Error('README has no walkthrough shell block')
  return block
}

describe('README walkthrough', () => {
  it('runs exactly as written and shows what the README says', async () => {
    const script = await walkthroughScript()
    // `set -u` catches a variable the text forgets to define; `echo $D` lets the test clean up.
    const child = spawn('bash', ['-uc', `${script}\necho "scratch:$D"`], { cwd: WORKSPACE, env: { ...process.env, ISNAD_HOME: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    const scratch = /scratch:(\S+)/.exec(stdout)?.[1]
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })

    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/trust 0\.29 Unverified/)
    expect(stdout).toMatch(/trust 0\.59 Attested/)
    expect(stdout).toMatch(/^0\.59 Attested +bafyrei\S+ +\[insight\] Memory synthesis is harder/m)
    expect(stdout).toContain('valid bundle (2 records)')
    expect(stdout).toContain('INVALID bundle (2 records)')
    expect(stdout.match(/exit status 1/g)).toHaveLength(2)
    expect(stderr).toMatch(/error SIGNATURE_INVALID: record #1/)
    expect(stdout).toContain('imported 2 new records (0 already present), rescored 1 memories')
  }, 120_000)
})

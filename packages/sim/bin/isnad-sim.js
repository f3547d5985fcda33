#!/usr/bin/env node
// The simulator's command (`isnad-sim <command>`, the same as `isnad sim <command>`): compiled from src/cli.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  // A clear refusal rather than a failure deep inside a dependency (package.json engines).
  process.stderr.write(`isnad-sim: needs Node.js >= 22.12, this is ${process.version} (${process.execPath}).\n`)
  process.exit(1)
}
const { runSimCli } = await import('../dist/src/cli/index.js')
process.exitCode = await runSimCli(process.argv)

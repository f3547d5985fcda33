#!/usr/bin/env node
// The CLI's entry point on Node (the `isnad` command is bin/isnad, which picks a Node 22 to run
// this on); the CLI itself is compiled from src/cli.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  // A clear refusal rather than a failure deep inside a dependency (package.json engines).
  process.stderr.write(`isnad: needs Node.js >= 22.12, this is ${process.version} (${process.execPath}).\n` +
    'Run the `isnad` command (bin/isnad: it uses the Node 22 a clone installs under node_modules/node) or `npx isnad` in the clone.\n')
  process.exit(1)
}
const { runCli } = await import('../dist/src/cli/index.js')
process.exitCode = await runCli(process.argv)

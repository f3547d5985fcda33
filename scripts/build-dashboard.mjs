// Builds the web dashboard's browser files into dist/src/dashboard/assets (part of `npm run build`):
// esbuild bundles src/dashboard/browser/main.ts (with @noble/ed25519, @ipld/dag-cbor and the record
// code it shares with the node) into one ES module; the page, stylesheet and icon are copied beside it.
// esbuild does not type-check: `npm run typecheck` does (src/dashboard/browser/tsconfig.json).
import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(repo, 'dist/src/dashboard/assets')
await mkdir(out, { recursive: true })
await build({
  entryPoints: [join(repo, 'src/dashboard/browser/main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  minify: true,
  legalComments: 'none',
  logLevel: 'warning'
})
for (const file of ['index.html', 'style.css', 'favicon.svg']) await copyFile(join(repo, 'src/dashboard/assets', file), join(out, file))

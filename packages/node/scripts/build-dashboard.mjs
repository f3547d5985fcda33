// Builds the web dashboard's browser files into dist/src/dashboard/assets (part of `npm run build`):
// esbuild bundles src/dashboard/browser/main.ts (with @noble/curves, @ipld/dag-cbor and the record
// code it shares with the node) into one ES module; the page, stylesheet and icon are copied beside it.
// esbuild does not type-check: `npm run typecheck` does (src/dashboard/browser/tsconfig.json).
//
// Incremental: the bundle is skipped when nothing it was made from changed. esbuild's metafile names
// every file that went into the last bundle (sources and node_modules alike); a stamp
// (dist/dashboard-bundle.stamp.json) keeps their SHA-256 digests, this script's own and esbuild's
// version. A new import can only appear by editing a file already listed, so re-hashing the listed
// files is enough to know.
import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, version } from 'esbuild'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(repo, 'dist/src/dashboard/assets')
// Beside the tsbuildinfo files, outside dist/src: neither packed nor copied into the image.
const stampPath = join(repo, 'dist/dashboard-bundle.stamp.json')
const outputs = ['app.js', 'app.js.map']

const digest = async (path) => {
  try {
    return createHash('sha256').update(await readFile(join(repo, path))).digest('hex')
  } catch {
    return null // a file gone since the last bundle: a change like any other
  }
}

/** The digests of the bundle's inputs, with what made the bundle: this script and esbuild. */
async function fingerprint (inputs) {
  const files = {}
  for (const path of [...inputs, 'scripts/build-dashboard.mjs'].sort()) files[path] = await digest(path)
  return { esbuild: version, files }
}

async function isFresh () {
  let stamp
  try {
    stamp = JSON.parse(await readFile(stampPath, 'utf8'))
    for (const file of outputs) await stat(join(out, file))
  } catch {
    return false
  }
  const now = await fingerprint(Object.keys(stamp.files).filter((path) => path !== 'scripts/build-dashboard.mjs'))
  return JSON.stringify(now) === JSON.stringify(stamp)
}

await mkdir(out, { recursive: true })
if (!(await isFresh())) {
  const result = await build({
    absWorkingDir: repo,
    entryPoints: ['src/dashboard/browser/main.ts'],
    outfile: join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true
  })
  await writeFile(stampPath, JSON.stringify(await fingerprint(Object.keys(result.metafile.inputs))) + '\n')
}
for (const file of ['index.html', 'style.css', 'favicon.svg']) await copyFile(join(repo, 'src/dashboard/assets', file), join(out, file))

import { describePurity } from '../../fixtures/purity.js'

// The reducer is pure; only writer.ts and fs-lines.ts in src/ledger/views touch the file system.
// node:crypto is there for its one-shot SHA-256 (ids.ts): a computation, no I/O or randomness.
describePurity({
  title: 'src/ledger/views: the reducer is pure',
  folder: 'src/ledger/views/',
  minFiles: 8,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/\.\.\/(schema|errors)\/index\.js|zod|canonicalize|@noble\/hashes\/sha2\.js|node:crypto)$/,
  ioFiles: new Set(['writer.ts', 'fs-lines.ts'])
})

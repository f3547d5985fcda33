import { describePurity } from '../../fixtures/purity.js'

// The reducer is pure; only writer.ts and fs-lines.ts in src/ledger/object-views touch the file system.
// Typed ids come from the ledger's one home of them (../ids.ts: SHA-256 and base32, a computation).
describePurity({
  title: 'src/ledger/object-views: the reducer is pure',
  folder: 'src/ledger/object-views/',
  minFiles: 8,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/ids\.js|\.\.\/\.\.\/(schema|errors)\/index\.js|zod|canonicalize|@noble\/hashes\/sha2\.js|node:crypto)$/,
  ioFiles: new Set(['writer.ts', 'fs-lines.ts'])
})

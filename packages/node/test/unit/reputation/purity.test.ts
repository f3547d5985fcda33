import { describePurity } from '../../fixtures/purity.js'

// The reputation core takes its votes and roots as input (src/trust, pure too, names the key resolver;
// src/draw and src/record, pure too, read N̂'s stated draws); only the roots file, the service that
// loads votes from the store, and the node's setting do I/O.
describePurity({
  title: 'src/reputation is pure but for its I/O files',
  folder: 'src/reputation/',
  minFiles: 8,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|trust|draw|record)\/index\.js|zod)$/,
  ioFiles: new Set(['roots-file.ts', 'service.ts', 'node-trust.ts'])
})

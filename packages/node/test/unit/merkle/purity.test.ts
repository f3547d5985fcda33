import { describePurity } from '../../fixtures/purity.js'

// The persistent log does its I/O only through the MerkleNodeStore it is given, so the whole folder
// runs in a browser (the dashboard verifies proofs and checkpoints): no Buffer either.
describePurity({
  title: 'src/merkle is pure',
  folder: 'src/merkle/',
  minFiles: 10,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|identity|record)\/index\.js|@noble\/hashes\/(sha2|utils)\.js|zod|multiformats\/(cid|bases\/base32))$/,
  forbidden: [['Node.js buffers', /\bBuffer\b/]]
})

import { describePurity } from '../../fixtures/purity.js'

// src/trust takes time and the reputation lookup as input, and imports only schema, errors and the
// witness draw's rule (src/draw, pure: whether a verified draw selects a witness).
describePurity({
  title: 'src/trust is pure',
  folder: 'src/trust/',
  minFiles: 3,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors|draw)\/index\.js)$/
})

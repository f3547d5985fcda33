import { describePurity } from '../../fixtures/purity.js'

// src/trust takes time and the reputation lookup as input, and imports only schema and errors.
describePurity({
  title: 'src/trust is pure',
  folder: 'src/trust/',
  minFiles: 3,
  allowedImports: /^(\.\/[a-z0-9-]+\.js|\.\.\/(schema|errors)\/index\.js)$/
})

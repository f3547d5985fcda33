import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // In the tests, the simulator's source imports the node's source (not its build): one copy of each
  // module in a test file that imports both, so an IsnadError is the same class on either side.
  resolve: {
    alias: [
      { find: /^isnad\/engine$/, replacement: fileURLToPath(new URL('packages/node/src/engine.ts', import.meta.url)) },
      { find: /^isnad\/cli$/, replacement: fileURLToPath(new URL('packages/node/src/cli-entry.ts', import.meta.url)) }
    ]
  },
  test: {
    // Both workspace packages' tests: the node's (packages/node/test) and the simulator's (packages/sim/test).
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['packages/node/test/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})

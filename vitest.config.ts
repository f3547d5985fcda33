import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Both workspace packages' tests: the node's (packages/node/test) and the simulator's (packages/sim/test).
    include: ['packages/*/test/**/*.test.ts'],
    globalSetup: ['packages/node/test/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})

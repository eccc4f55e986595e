import { defineConfig } from 'vitest/config'

// Browser journeys: the production server on a fresh embedded database with demo content, driven by Chromium.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/support/server.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A page's first answer waits for the server, Chromium and the other tests' work on a 2-core machine: a second
    // (the default) is too short under load. A poll still returns as soon as it holds; only a failure waits longer.
    expect: { poll: { timeout: 10_000 } },
  },
})

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Mail tests start real servers; files run in parallel on 2 cores at most.
    maxWorkers: 2,
  },
});

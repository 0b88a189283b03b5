import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/program-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most test files wait on node processes they start (I/O, not CPU): two files at a time
    // keep a 2-core machine busy where vitest's default (cores - 1) would run one.
    maxWorkers: 2,
  },
});

import { defineProject } from 'vitest/config';
import { globalServices, sharedAlias } from '../vitest.shared.js';

export default defineProject({
  resolve: { alias: sharedAlias },
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    globalSetup: [globalServices],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser and multi-server tests: one file at a time keeps two cores responsive.
    fileParallelism: false,
  },
});

import { defineProject } from 'vitest/config';
import { globalServices, sharedAlias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: sharedAlias },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: [globalServices],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { defineProject } from 'vitest/config';
import { sharedAlias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: sharedAlias },
  // Model tests generate weeks of 1-minute readings; on a busy two-core machine that takes seconds.
  test: { name: 'simulator', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 30_000 },
});

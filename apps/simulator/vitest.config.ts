import { defineProject } from 'vitest/config';
import { sharedAlias } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: sharedAlias },
  test: { name: 'simulator', environment: 'node', include: ['src/**/*.test.ts'], passWithNoTests: true },
});

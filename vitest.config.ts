import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/shared', 'apps/server', 'apps/simulator', 'apps/web', 'e2e'],
    // Tests start real servers and databases; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});

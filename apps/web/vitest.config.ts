import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { sharedAlias } from '../../vitest.shared.js';

export default defineProject({
  plugins: [react()],
  resolve: { alias: { ...sharedAlias, '@': path.resolve(import.meta.dirname, 'src') } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // Rendering tests with a user's clicks run 1–3 s alone; on two cores beside the server's and the browser
    // tests some passed 5 s (the default) and failed on time, not on what they assert.
    testTimeout: 15_000,
  },
});

import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';
import { serviceWorker } from './build/service-worker';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), serviceWorker(path.resolve(import.meta.dirname, 'src/sw/service-worker.ts')), precompress()],
  resolve: {
    alias: {
      '@phasewatch/shared': path.resolve(import.meta.dirname, '../../packages/shared/src/index.ts'),
      '@': path.resolve(import.meta.dirname, 'src'),
    },
  },
  server: {
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/hubs': { target: api, ws: true },
    },
  },
  // The manifest lets the weight bench (bench/dashboard-weight.bench.ts) follow a route's static imports.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1200, manifest: true },
});

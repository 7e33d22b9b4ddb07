import { readFileSync } from 'node:fs';
import { type Plugin, transformWithEsbuild } from 'vite';

/**
 * Builds the service worker (src/sw/service-worker.ts, self-contained) into `/sw.js` at the root of the
 * build, unhashed: a service worker's scope is its URL's folder, and browsers check that URL for updates
 * themselves. The dev server answers `/sw.js` from the same source.
 */
export function serviceWorker(entry: string): Plugin {
  const compile = async () => {
    const out = await transformWithEsbuild(readFileSync(entry, 'utf8'), entry, {
      loader: 'ts',
      format: 'iife',
      minify: true,
      target: 'es2020',
    });
    return out.code;
  };
  return {
    name: 'phasewatch-service-worker',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_req, res, next) => {
        compile().then((code) => {
          res.setHeader('content-type', 'text/javascript; charset=utf-8');
          res.setHeader('cache-control', 'no-cache');
          res.end(code);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: await compile() });
    },
  };
}

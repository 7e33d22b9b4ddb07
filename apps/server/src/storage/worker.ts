import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread for a module next to `base` (an `import.meta.url`): `name` + `.ts` under tsx or
 * vitest (the thread registers tsx first: Node 20 does not apply `--import tsx` from a worker's
 * execArgv to its entry), `name` + `.js` when built.
 */
export function moduleWorker(base: string, name: string, opts: Pick<WorkerOptions, 'workerData' | 'resourceLimits'>): Worker {
  const ts = base.endsWith('.ts');
  const entry = new URL(`./${name}.${ts ? 'ts' : 'js'}`, base);
  return ts
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, {
        eval: true,
        ...opts,
      })
    : new Worker(entry, opts);
}

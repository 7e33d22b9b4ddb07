import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread for a module next to `base` (an `import.meta.url`): `name` + `.ts` under tsx or
 * vitest (the thread registers tsx first: Node 20 does not apply `--import tsx` from a worker's
 * execArgv to its entry), `name` + `.js` when built.
 */
/**
 * The URL of the module `name` beside `base` (an `import.meta.url`): `.ts` under tsx or vitest, `.js` when
 * built, as `moduleWorker` picks a thread's entry. Threads load features' modules by these URLs (job kinds,
 * writer extensions), so the facility running them imports no feature.
 */
export function moduleUrl(base: string, name: string): string {
  return new URL(`./${name}.${base.endsWith('.ts') ? 'ts' : 'js'}`, base).href;
}

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

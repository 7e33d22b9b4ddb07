import type { TestProject } from 'vitest/node';
import { startPgCluster } from './pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throw-away PostgreSQL cluster (database `postgres`). */
    pgUrl: string;
  }
}

/**
 * Vitest global setup for projects that need real services: one PostgreSQL cluster per project run, stopped
 * afterwards. Test files create their own databases inside the cluster. MQTT tests start a broker of their
 * own (`apps/server/src/test/broker.ts`): servers subscribe to every device's topic, so files sharing one
 * broker would hear each other's messages.
 */
export default async function setup(project: TestProject) {
  const pg = await startPgCluster();
  project.provide('pgUrl', pg.url);
  return async () => {
    pg.stop();
  };
}

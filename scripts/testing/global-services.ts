import type { TestProject } from 'vitest/node';
import { startMosquitto } from './mosquitto.js';
import { startPgCluster } from './pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throw-away PostgreSQL cluster (database `postgres`). */
    pgUrl: string;
    /** URL of the throw-away Mosquitto broker. */
    mqttUrl: string;
  }
}

/**
 * Vitest global setup for projects that need real services: one PostgreSQL cluster and one Mosquitto
 * broker per project run, stopped afterwards. Test files create their own databases inside the cluster.
 */
export default async function setup(project: TestProject) {
  const [pg, broker] = await Promise.all([startPgCluster(), startMosquitto()]);
  project.provide('pgUrl', pg.url);
  project.provide('mqttUrl', broker.url);
  return async () => {
    await broker.stop();
    pg.stop();
  };
}

import type { ExportJob } from '@phasewatch/shared';

/**
 * Exports started in this tab that have not been announced yet: the app-wide notices watch them (the
 * hub's `exportReady` tells when one is ready; asking the server covers a failure, which the hub does not
 * announce, and a hub that was away). Module state, so any page may start one and any page tells.
 */
const pending = new Map<string, Pick<ExportJob, 'id' | 'fileName' | 'format'>>();
const listeners = new Set<() => void>();

export function trackExport(job: Pick<ExportJob, 'id' | 'fileName' | 'format'>): void {
  pending.set(job.id, { id: job.id, fileName: job.fileName, format: job.format });
  for (const l of listeners) l();
}

/** Takes an export off the watch list; true when it was on it (so it is announced once). */
export function settleExport(id: string): boolean {
  return pending.delete(id);
}

export function pendingExports(): Pick<ExportJob, 'id' | 'fileName' | 'format'>[] {
  return [...pending.values()];
}

export function onPendingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

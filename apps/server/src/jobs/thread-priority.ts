import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How far a job thread gives way: its nice value this much above the process's (capped at 19). On two cores a
 * year's export beside 200 posting meters left the main thread free (event-loop delay p99 ≤ 16 ms) but took
 * CPU the database's backends and the writer wanted: other users' p99 99–137 ms on PostgreSQL.
 */
export const JOB_THREAD_NICE = 10;

/**
 * Lowers the calling thread's CPU priority only: on Linux `setpriority` with a thread's id (from
 * /proc/thread-self) sets that thread's nice value. Elsewhere, or where it is refused, the thread keeps the
 * process's priority.
 */
export function giveWay(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + JOB_THREAD_NICE));
  } catch {
    // not Linux, or not allowed: the thread runs at the process's priority
  }
}

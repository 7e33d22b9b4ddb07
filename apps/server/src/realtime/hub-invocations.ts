import type { InvocationMessage } from './hub-protocol.js';

/** How one invocation ended: the value for its Completion, or the error the caller sees. */
export type Outcome = { result: unknown } | { error: string };

/** The bounds of hub invocations (see `HubInvocations`). */
export interface InvocationLimits {
  /** Invocations of one connection running at once. */
  window: number;
  /** Invocations of one user running at once, over all of the user's connections. */
  perUser: number;
  /** Invocations one connection may have waiting for an answer (running included); past it the connection is closed. */
  maxQueued: number;
}

/** One invocation, from its arrival to its answer. */
interface Call {
  msg: InvocationMessage;
  /** Set when it has run (or was answered without running): what goes back, in arrival order. */
  outcome: Outcome | null;
}

/** A connection's invocations: the ones not started yet, and every one not answered yet, in arrival order. */
export class CallQueue {
  readonly waiting: Call[] = [];
  readonly unanswered: Call[] = [];
  running = 0;
  get size(): number {
    return this.unanswered.length;
  }
}

/** What the scheduler needs of a connection. */
export interface Caller {
  readonly userId: number;
  readonly calls: CallQueue;
  readonly closed: boolean;
}

/** What runs and answers invocations (the hub). */
export interface InvocationHost<C extends Caller> {
  run(caller: C, msg: InvocationMessage): Promise<Outcome>;
  /** The Completion of an invocation that has an id (a `send` gets nothing back). */
  answer(caller: C, invocationId: string, outcome: Outcome): void;
}

export interface InvocationStats {
  /** Invocations running now, on every connection. */
  running: number;
  /** Invocations waiting to start, on every connection. */
  waiting: number;
  /** Connections closed for flooding (more than `maxQueued` invocations unanswered, or refused by the rate limit). */
  floodClosed: number;
  /** The most invocations seen running at once on one connection and for one user (since start or `resetPeaks`). */
  peakPerConnection: number;
  peakPerUser: number;
}

/**
 * Bounds what hub clients have in flight. Each connection's invocations are answered in the order they
 * arrived; at most `window` of them run at once and at most `perUser` of one user's, over all of the
 * user's connections (a user's queries never take more than that share of the database pool); the rest
 * wait in the connection's queue, and a connection with more than `maxQueued` unanswered invocations is
 * flooding and is refused (the caller closes it). Before, each invocation started as it arrived: one
 * connection's 35,000 `SubscribeDevice` calls started 35,000 ownership queries at once, and other users'
 * requests waited behind them for seconds.
 */
export class HubInvocations<C extends Caller> {
  /** Invocations running per user, and the connections of the user waiting for a free slot. */
  private readonly users = new Map<number, { running: number; blocked: Set<C> }>();
  private floodClosed = 0;
  private peakPerConnection = 0;
  private peakPerUser = 0;
  /** Connections to give their next turn (a call of theirs ended), started together after this turn. */
  private readonly due = new Set<C>();
  private dueScheduled = false;

  constructor(
    private readonly host: InvocationHost<C>,
    public limits: InvocationLimits,
  ) {}

  /**
   * Queues an invocation; `immediate` answers it without running it (refused by a limit, not supported),
   * still in its turn. False when the connection has too many unanswered: nothing was queued.
   */
  submit(caller: C, msg: InvocationMessage, immediate?: Outcome): boolean {
    const q = caller.calls;
    if (q.size >= this.limits.maxQueued) {
      this.floodClosed++;
      return false;
    }
    const call: Call = { msg, outcome: immediate ?? null };
    q.unanswered.push(call);
    if (immediate) this.answerReady(caller);
    else {
      q.waiting.push(call);
      this.pump(caller);
    }
    return true;
  }

  /** Counts a connection closed for flooding by another measure than its queue (its stats). */
  countFlood(): void {
    this.floodClosed++;
  }

  /** Forgets a closed connection's queue (what runs still finishes, and frees its slots). */
  drop(caller: C): void {
    caller.calls.waiting.length = 0;
    caller.calls.unanswered.length = 0;
    this.users.get(caller.userId)?.blocked.delete(caller);
  }

  stats(callers: Iterable<C>): InvocationStats {
    let running = 0;
    let waiting = 0;
    for (const c of callers) {
      running += c.calls.running;
      waiting += c.calls.waiting.length;
    }
    return { running, waiting, floodClosed: this.floodClosed, peakPerConnection: this.peakPerConnection, peakPerUser: this.peakPerUser };
  }

  resetPeaks(): void {
    this.peakPerConnection = 0;
    this.peakPerUser = 0;
  }

  private user(userId: number) {
    let u = this.users.get(userId);
    if (!u) {
      u = { running: 0, blocked: new Set() };
      this.users.set(userId, u);
    }
    return u;
  }

  /** Starts what the connection's window and the user's share allow. */
  private pump(caller: C): void {
    const q = caller.calls;
    const u = this.user(caller.userId);
    while (q.waiting.length > 0 && q.running < this.limits.window && !caller.closed) {
      if (u.running >= this.limits.perUser) {
        u.blocked.add(caller);
        return;
      }
      const call = q.waiting.shift() as Call;
      q.running++;
      u.running++;
      if (q.running > this.peakPerConnection) this.peakPerConnection = q.running;
      if (u.running > this.peakPerUser) this.peakPerUser = u.running;
      void this.start(caller, call);
    }
    u.blocked.delete(caller);
    if (u.running === 0 && u.blocked.size === 0) this.users.delete(caller.userId);
  }

  private async start(caller: C, call: Call): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await this.host.run(caller, call.msg);
    } catch (err) {
      outcome = { error: err instanceof Error ? err.message : String(err) };
    }
    call.outcome = outcome;
    caller.calls.running--;
    const u = this.user(caller.userId);
    u.running--;
    if (!caller.closed) {
      this.answerReady(caller);
      this.later(caller);
    }
    // A slot of the user is free: their other connections waiting for one go on, in turn.
    for (const other of u.blocked) this.later(other);
    if (u.running === 0 && u.blocked.size === 0) this.users.delete(caller.userId);
  }

  /**
   * The next calls of a connection start in a later event-loop turn, not in the microtasks of the one
   * that ended: a query that answers at once (SQLite) would otherwise run a whole flood in one turn,
   * with no request of anyone else in between.
   */
  private later(caller: C): void {
    this.due.add(caller);
    if (this.dueScheduled) return;
    this.dueScheduled = true;
    setImmediate(() => {
      this.dueScheduled = false;
      const callers = [...this.due];
      this.due.clear();
      for (const c of callers) if (!c.closed) this.pump(c);
    });
  }

  /** Sends the answers that are next in arrival order. */
  private answerReady(caller: C): void {
    const q = caller.calls;
    while (q.unanswered.length > 0 && q.unanswered[0]?.outcome) {
      const call = q.unanswered.shift() as Call;
      if (call.msg.invocationId !== undefined && !caller.closed) this.host.answer(caller, call.msg.invocationId, call.outcome as Outcome);
    }
  }
}

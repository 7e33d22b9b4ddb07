/**
 * The JSON hub protocol of ASP.NET Core SignalR (HubProtocol.md): records are JSON texts each ended by
 * the record separator 0x1E; a frame holds one or more whole records. Parsing is strict: anything
 * malformed is a ProtocolError and the connection is closed (never a crash).
 */

export const RECORD_SEPARATOR = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

export class ProtocolError extends Error {}

export interface InvocationMessage {
  type: 1 | 4;
  target: string;
  arguments: unknown[];
  invocationId?: string;
}

/** Messages we act on; the others the client may legally send (stream items, acks, …) are `ignored`. */
export type ClientMessage =
  | InvocationMessage
  | { type: 5; invocationId: string }
  | { type: 6 }
  | { type: 7; error?: string }
  | { type: 'ignored' };

/** Splits a text frame into records; a frame that does not end with the separator is malformed. */
export function splitRecords(frame: string): string[] {
  if (!frame.endsWith(RECORD_SEPARATOR)) throw new ProtocolError('Message is incomplete.');
  const parts = frame.split(RECORD_SEPARATOR);
  parts.pop();
  return parts;
}

function parseObject(record: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    throw new ProtocolError('Invalid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtocolError('Expected a JSON object.');
  return value as Record<string, unknown>;
}

/** The handshake request `{"protocol":"json","version":1}`; only the JSON protocol is spoken here. */
export function parseHandshake(record: string): { protocol: string; version: number } {
  const o = parseObject(record);
  if (typeof o.protocol !== 'string' || typeof o.version !== 'number') throw new ProtocolError('Invalid handshake request.');
  return { protocol: o.protocol, version: o.version };
}

const optionalId = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

export function parseMessage(record: string): ClientMessage {
  const o = parseObject(record);
  switch (o.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      if (typeof o.target !== 'string' || !Array.isArray(o.arguments) || !optionalId(o.invocationId)) {
        throw new ProtocolError('Invalid invocation message.');
      }
      if (o.type === MessageType.StreamInvocation && o.invocationId === undefined) throw new ProtocolError('Invalid stream invocation.');
      const m: InvocationMessage = { type: o.type, target: o.target, arguments: o.arguments };
      if (o.invocationId !== undefined) m.invocationId = o.invocationId;
      return m;
    }
    case MessageType.CancelInvocation:
      if (typeof o.invocationId !== 'string') throw new ProtocolError('Invalid cancel message.');
      return { type: 5, invocationId: o.invocationId };
    case MessageType.Ping:
      return { type: 6 };
    case MessageType.Close:
      return typeof o.error === 'string' ? { type: 7, error: o.error } : { type: 7 };
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.Ack:
    case MessageType.Sequence:
      // Client streams, client results and stateful reconnect are not offered; the messages are harmless.
      return { type: 'ignored' };
    default:
      throw new ProtocolError(`Unknown message type ${JSON.stringify(o.type)}.`);
  }
}

export const HANDSHAKE_OK_FRAME = `{}${RECORD_SEPARATOR}`;
export const PING_FRAME = `{"type":6}${RECORD_SEPARATOR}`;

export const handshakeErrorFrame = (error: string) => `${JSON.stringify({ error })}${RECORD_SEPARATOR}`;

/** A server push (an invocation without invocationId). */
export const invocationFrame = (target: string, args: unknown[]) =>
  `${JSON.stringify({ type: MessageType.Invocation, target, arguments: args })}${RECORD_SEPARATOR}`;

export function completionFrame(invocationId: string, outcome: { result: unknown } | { error: string }): string {
  const body =
    'error' in outcome
      ? { type: MessageType.Completion, invocationId, error: outcome.error }
      : outcome.result === undefined
        ? { type: MessageType.Completion, invocationId }
        : { type: MessageType.Completion, invocationId, result: outcome.result };
  return `${JSON.stringify(body)}${RECORD_SEPARATOR}`;
}

export function closeFrame(error?: string, allowReconnect?: boolean): string {
  const body: { type: 7; error?: string; allowReconnect?: boolean } = { type: MessageType.Close };
  if (error !== undefined) body.error = error;
  if (allowReconnect) body.allowReconnect = true;
  return `${JSON.stringify(body)}${RECORD_SEPARATOR}`;
}

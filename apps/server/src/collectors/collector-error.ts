import type { CollectorErrorKey } from '@phasewatch/shared';

/** Why a device could not be read: a key the web app translates and an English text for the API and logs. */
export class CollectorError extends Error {
  constructor(
    readonly key: CollectorErrorKey,
    message: string,
  ) {
    super(message);
    this.name = 'CollectorError';
  }
}

/** Any failure as a CollectorError (a bug in a parser is an unexpected answer, never a crash). */
export function asCollectorError(err: unknown): CollectorError {
  if (err instanceof CollectorError) return err;
  return new CollectorError('unexpectedAnswer', err instanceof Error ? err.message : String(err));
}

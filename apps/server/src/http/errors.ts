import type { Socket } from 'node:net';
import {
  type ApiErrorResponse,
  type ApiFieldError,
  ERROR_MESSAGES,
  type ErrorMessageKey,
  isMessageKey,
  validationMessage,
} from '@phasewatch/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error a service throws on purpose; the handler answers it with its status and field errors. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors: ApiFieldError[] = [{ message }],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * An error with a message key the web translates (`errors.*` of packages/shared): the English text is the
 * answer's `message` (prefixed with the field when there is one, unless `message` is given) and the field
 * error carries both the text and the key.
 */
export function keyedError(
  statusCode: number,
  key: ErrorMessageKey,
  opts: { field?: string; message?: string; headers?: Record<string, string> } = {},
): ApiError {
  const text = ERROR_MESSAGES[key];
  const message = opts.message ?? (opts.field ? `${opts.field}: ${text}` : text);
  return new ApiError(statusCode, message, [{ ...(opts.field ? { field: opts.field } : {}), message: text, key }], opts.headers);
}

export const badRequest = (field: string, message: string) => new ApiError(400, `${field}: ${message}`, [{ field, message }]);
export const unauthorized = (message = 'Unauthorized') =>
  new ApiError(401, message, [{ message, key: 'errors.unauthorized' satisfies ErrorMessageKey }]);
export const notFound = (message = 'Not found') => new ApiError(404, message);

export function errorBody(statusCode: number, message: string, errors: ApiFieldError[]): ApiErrorResponse {
  return { statusCode, error: STATUS_NAMES[statusCode] ?? 'Error', message, errors };
}

/** Fastify's own client-error codes we rephrase with a field. */
const FASTIFY_CLIENT_ERRORS: Record<string, { field?: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { field: 'body', message: 'malformed JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { field: 'body', message: 'empty JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { field: 'body', message: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { field: 'content-type', message: 'unsupported content type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { field: 'content-length', message: 'does not match the body' },
};

/** A failure as the answer's status and its one field error. */
function failure(statusCode: number, field: string, message: string): ApiErrorResponse {
  return errorBody(statusCode, `${field}: ${message}`, [{ field, message }]);
}

/**
 * Errors Fastify raises before any route or hook runs (the router cannot read the URL), answered in
 * the one error shape like everything else. Given to the Fastify constructor as `frameworkErrors`.
 */
function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const body =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? failure(414, 'url', 'a path parameter is too long')
      : err.code === 'FST_ERR_BAD_URL'
        ? failure(400, 'url', 'is not a valid URL (bad percent-encoding)')
        : errorBody(500, 'Internal server error', [{ message: 'Internal server error' }]);
  void reply.status(body.statusCode).send(body);
}

/**
 * Requests Node's HTTP parser refuses (headers too large, malformed request lines, timeouts): no
 * request object exists, so the answer is written to the socket, in the one error shape, and the
 * connection closed, as Node itself does. Given to the Fastify constructor as `clientErrorHandler`.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const body =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? failure(408, 'request', 'was not received in time')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? failure(431, 'headers', 'the request line and headers are too large')
        : failure(400, 'request', 'is not a well-formed HTTP request');
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${body.statusCode} ${body.error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}

/** Fastify constructor options that route framework-level failures into the one error shape. */
export const frameworkErrorOptions = { frameworkErrors, clientErrorHandler } satisfies Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler'
>;

/**
 * One error shape for every failure: `{ statusCode, error, message, errors: [{ field, message }] }`.
 * Client errors keep their status; anything unexpected is logged and answered 500 without details.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) {
      reply.headers(err.headers);
      return reply.status(err.statusCode).send(errorBody(err.statusCode, err.message, err.errors));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const part = err.validationContext ?? 'body';
      const errors = err.validation.map((v) => {
        const p = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const unknownKeys = (v.params as { keys?: string[] } | undefined)?.keys;
        const field = unknownKeys?.length ? [p, unknownKeys.join(',')].filter(Boolean).join('.') : p || part;
        const raw = unknownKeys?.length ? 'errors.unknownField' : (v.message ?? 'invalid');
        // The key travels with the English text so the web app can show it in the user's language.
        return { field, message: validationMessage(raw), ...(isMessageKey(raw) ? { key: raw } : {}) };
      });
      const message = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      return reply.status(400).send(errorBody(400, message, errors));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response does not match its schema');
      return reply.status(500).send(errorBody(500, 'Internal server error', [{ message: 'Internal server error' }]));
    }
    const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = known ? `${known.field}: ${known.message}` : err.message;
      return reply
        .status(status)
        .send(errorBody(status, message, [{ ...(known?.field ? { field: known.field } : {}), message: known?.message ?? err.message }]));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody(500, 'Internal server error', [{ message: 'Internal server error' }]));
  });
}

import { APP_VERSION_HEADER, type ApiFieldError, type AuthResponse, DOWNLOAD_TIMEOUT_MS } from '@phasewatch/shared';

/** What went wrong: an HTTP answer (4xx), a server failure (5xx), no answer at all, or a timeout. */
export type ApiErrorKind = 'http' | 'server' | 'network' | 'timeout';

/** i18n key of the spec's server error text (section 8). */
export const SERVER_ERROR_KEY = 'errors.server';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number,
    message: string,
    /** Field errors of a 4xx answer (`errors` of the body). */
    readonly errors: ApiFieldError[] = [],
    /** Seconds the server asked to wait (`Retry-After` of a 429 or 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** Base URL of the API, e.g. `/api/` or `http://127.0.0.1:8080/api/`. */
  baseUrl: string;
  fetch?: typeof fetch;
  getToken(): string | null;
  /** The signed-in user's record: the refresh call's body (spec section 7: "current user"). */
  getUser?(): object | null;
  /** A refresh worked: store the new auth. */
  onRefreshed(auth: AuthResponse): void;
  /** Refresh failed after a 401: clear the auth. */
  onPurge(): void;
  /** A 404 answer: show the 404 page (called once until `resetNotFound`). */
  onNotFound(): void;
  /** The server's version header changed on a GET: the app reloads. */
  onVersionChange(version: string, previous: string): void;
  /** Version the page was loaded with; the first answer's header is taken when not given. */
  initialVersion?: string;
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** No refresh-and-replay on 401 (login, register, refresh itself, token verification). */
  skipAuthRefresh?: boolean;
  /** Answer 404 to the caller instead of going to the 404 page (e.g. an optional list). */
  notFoundRedirect?: boolean;
  responseType?: 'json' | 'blob';
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiClient {
  request<T>(method: Method, path: string, opts?: RequestOptions): Promise<T>;
  get<T>(path: string, opts?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T>;
  delete<T>(path: string, opts?: RequestOptions): Promise<T>;
  /** POST that answers a file; the spec's blob download with a 2-hour timeout. */
  download(path: string, body?: unknown, opts?: RequestOptions): Promise<Blob>;
  /** One refresh at a time: concurrent 401s share it. Resolves to the new token, or null. */
  refresh(): Promise<string | null>;
  /** Allows the next 404 to go to the 404 page again (called after each navigation). */
  resetNotFound(): void;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (type.includes('json') && text) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function errorsOf(body: unknown): { message: string; errors: ApiFieldError[] } {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; errors?: unknown };
    const errors = Array.isArray(b.errors)
      ? b.errors.filter((e): e is ApiFieldError => !!e && typeof e === 'object' && typeof (e as ApiFieldError).message === 'string')
      : [];
    return { message: typeof b.message === 'string' ? b.message : (errors[0]?.message ?? ''), errors };
  }
  return { message: typeof body === 'string' ? body : '', errors: [] };
}

/**
 * The one HTTP client of the app (spec sections 4, 7, 8): base URL, Bearer token, credentials included;
 * a 401 refreshes once and replays, or purges the auth; a 404 goes once to the 404 page; 5xx answers
 * carry the server error text; a changed version header on a GET reloads the app.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let knownVersion = options.initialVersion ?? null;
  let refreshing: Promise<string | null> | null = null;
  let notFoundHandled = false;

  const url = (path: string) =>
    new URL(path.replace(/^\//, ''), new URL(options.baseUrl, globalThis.location?.href ?? 'http://localhost/')).toString();

  function checkVersion(method: Method, res: Response) {
    if (method !== 'GET') return;
    const v = res.headers.get(APP_VERSION_HEADER);
    if (!v) return;
    if (knownVersion !== null && v !== knownVersion) {
      const previous = knownVersion;
      knownVersion = v;
      options.onVersionChange(v, previous);
      return;
    }
    knownVersion = v;
  }

  async function send(method: Method, path: string, opts: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | FormData | undefined;
    // A form (a file upload) goes as multipart/form-data, its boundary set by fetch.
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, opts.timeoutMs)
      : undefined;
    try {
      return await doFetch(url(path), { method, headers, body, credentials: 'include', signal: controller.signal });
    } catch (err) {
      if (timedOut) throw new ApiError('timeout', 0, 'errors.timeout');
      if (opts.signal?.aborted) throw err;
      throw new ApiError('network', 0, SERVER_ERROR_KEY);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function refresh(): Promise<string | null> {
    refreshing ??= (async () => {
      try {
        // The spec's body is the current user; the server names the session by its refresh cookie alone.
        const res = await send('POST', 'account/refreshtoken', { body: options.getUser?.() ?? {} }, null);
        if (!res.ok) return null;
        const auth = (await readBody(res)) as AuthResponse;
        if (!auth || typeof auth.token !== 'string') return null;
        options.onRefreshed(auth);
        return auth.token;
      } catch {
        return null;
      } finally {
        // Let the next 401 (after this refresh settled) try again.
        queueMicrotask(() => {
          refreshing = null;
        });
      }
    })();
    return refreshing;
  }

  async function request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
    const used = options.getToken();
    let res = await send(method, path, opts, used);
    if (res.status === 401 && !opts.skipAuthRefresh) {
      // Another request may have refreshed while this one was under way: replay with that token.
      const current = options.getToken();
      const token = current && current !== used ? current : await refresh();
      if (token === null) {
        options.onPurge();
      } else {
        res = await send(method, path, opts, token);
        if (res.status === 401) options.onPurge();
      }
    }
    checkVersion(method, res);
    if (res.ok) {
      if (opts.responseType === 'blob') return (await res.blob()) as T;
      return (await readBody(res)) as T;
    }
    const body = await readBody(res);
    const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN);
    const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null;
    const { message, errors } = errorsOf(body);
    // A 503 that says why (a keyed error: the export queue is full) keeps its key for the caller.
    if (res.status >= 500) throw new ApiError('server', res.status, SERVER_ERROR_KEY, res.status === 503 ? errors : [], wait);
    if (res.status === 404 && opts.notFoundRedirect !== false && !notFoundHandled) {
      notFoundHandled = true;
      options.onNotFound();
    }
    throw new ApiError('http', res.status, message || `HTTP ${res.status}`, errors, wait);
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    download: (path, body, opts) => request<Blob>('POST', path, { timeoutMs: DOWNLOAD_TIMEOUT_MS, ...opts, body, responseType: 'blob' }),
    refresh,
    resetNotFound() {
      notFoundHandled = false;
    },
  };
}

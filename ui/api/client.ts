/**
 * The typed API client (application.md §7, §8 "Central handling"). Every call carries the bearer token
 * once authorized; responses are parsed with the valibot contract of api/contract; a failure computes the
 * displayed message in the spec's order (call's own message, data.message, data.reason, status text,
 * default), stores the error, shows an error toast unless silenced, sends any 401 to /login (through the
 * handler the auth store registers) and throws an ApiError.
 */
import * as v from 'valibot';
import { chooseErrorMessage, isLicenseError } from '../logic/errorMessage';
import { storeError } from '../stores/errors';
import { showToast } from '../stores/toasts';

/** Thrown by every failing call. `status` 0 means the network failed or the response did not parse. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly data: unknown,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Query values; undefined and null are left out. */
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body (FormData is sent as is). */
  body?: unknown;
  /** The call's own error message, which wins over the server's (§8). */
  message?: string;
  /** No error toast (the caller shows the error itself). */
  silent?: boolean;
  /** Do not treat 401 as an expired session (e.g. the login call's wrong password). */
  allow401?: boolean;
  /**
   * The caller expects this failure and shows it itself: it is not stored for the error view (so /error
   * never shows a refusal the user already saw, e.g. a wrong password). Implies `silent`.
   */
  expected?: boolean;
  signal?: AbortSignal;
}

let tokenProvider: () => string | null = () => null;
let unauthorizedHandler: () => void = () => {};
let licenseHandler: (message: string) => string = (m) => m;

/**
 * Registers what a LicenseError reply does (application.md §8: "Type LicenseError marks the product as
 * unlicensed and stores the message. External users see only the default message."): the handler records
 * the state and returns the message to show.
 */
export function setLicenseErrorHandler(fn: (message: string) => string): void {
  licenseHandler = fn;
}

/** Registers where the bearer token comes from (the auth store). */
export function setTokenProvider(fn: () => string | null): void {
  tokenProvider = fn;
}

/** Registers what a 401 does (the auth store: log out and go to /login). */
export function setUnauthorizedHandler(fn: () => void): void {
  unauthorizedHandler = fn;
}

/** The Authorization header for the current token, or {}. */
export function authHeaders(): Record<string, string> {
  const t = tokenProvider();
  return t ? { Authorization: `Bearer ${t}` } : {};
}

/**
 * This page's viewer id: every instance call carries it (viewer.md §7 `viewerId`), so the server knows which
 * viewers use a project's cached data and one viewer's maintenance/shutdown does not drop it under another.
 */
export const VIEWER_ID: string = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');

const INSTANCE_PREFIX = '/api/keelson-instance/';

/** `query` with this page's `viewerId` added for an instance call that does not name one. */
export function withViewerId(path: string, query: Query | undefined): Query | undefined {
  if (!path.startsWith(INSTANCE_PREFIX) || query?.viewerId != null) return query;
  return { ...query, viewerId: VIEWER_ID };
}

/** Builds a path with its query string. */
export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, val] of Object.entries(query)) if (val !== undefined && val !== null) qs.set(k, String(val));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Central failure handling shared by fetch and XHR calls: chooses the message, stores the error, toasts,
 * handles 401; returns the ApiError to throw.
 */
export function handleFailure(
  status: number,
  data: unknown,
  opts: Pick<RequestOptions, 'message' | 'silent' | 'allow401' | 'expected'>,
): ApiError {
  let message = chooseErrorMessage(opts.message, data, status);
  if (isLicenseError(data)) message = licenseHandler(message);
  const reason =
    data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
      ? (data as { error: string }).error
      : status
        ? `HTTP ${status}`
        : 'Network error';
  const err = new ApiError(message, status, data, reason);
  if (status === 401 && !opts.allow401) {
    unauthorizedHandler();
    return err;
  }
  if (opts.expected) return err;
  storeError({ reason, message });
  if (!opts.silent) showToast('error', message);
  return err;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * GETs `path` with the bearer token and answers the Response when it is ok (for bodies that are not JSON:
 * blobs, zips). @throws ApiError after the central handling (toast unless `silent`).
 */
export async function fetchOk(path: string, silent: boolean): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { headers: authHeaders() });
  } catch {
    throw handleFailure(0, null, { silent });
  }
  if (!res.ok) {
    const text = await res.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      /* a plain-text error */
    }
    throw handleFailure(res.status, data, { silent });
  }
  return res;
}

/**
 * Performs one call and parses the response with `schema` (null: the body is returned unchecked).
 * @throws ApiError on a network failure, a non-2xx status or a response that does not match the schema.
 */
export async function request<S extends v.GenericSchema | null>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  schema: S,
  opts: RequestOptions = {},
): Promise<S extends v.GenericSchema ? v.InferOutput<S> : unknown> {
  const headers: Record<string, string> = { ...authHeaders() };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, withViewerId(path, opts.query)), { method, headers, body, signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw handleFailure(0, null, opts);
  }
  const data = await readBody(res);
  if (!res.ok) throw handleFailure(res.status, data, opts);
  if (!schema) return data as never;
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) {
    const where = parsed.issues[0] ? (v.getDotPath(parsed.issues[0]) ?? 'response') : 'response';
    throw handleFailure(
      0,
      { error: 'BadResponse', message: `Unexpected response from ${path} at '${where}': ${parsed.issues[0]?.message}` },
      opts,
    );
  }
  return parsed.output as never;
}

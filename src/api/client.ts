import ky, { HTTPError } from 'ky';
import * as v from 'valibot';
import { ErrorBodySchema } from '../../contract/common';

/** Network failure text (docs/client.md §11, General network). */
const NETWORK_ERROR = 'Network error. Failed to connect to the server.';

/**
 * An API failure with the server's `error` text (or a fallback), the HTTP status (0 = network) and
 * the answer's Retry-After in seconds (null when it sent none, e.g. a 429 without it).
 */
export class ApiRequestError extends Error {
  constructor(message: string, public status: number, public retryAfter: number | null = null) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** The one ky instance: base /api, cookies always sent (docs/server.md §3). */
const http = ky.create({ prefixUrl: '/api', credentials: 'include', retry: 0, timeout: 20_000 });

/**
 * Runs a request and parses its JSON answer with a contract schema.
 * Raises ApiRequestError with the server's `error` text, `fallback` when it has none, or
 * NETWORK_ERROR (status 0) when the server cannot be reached; a malformed answer raises too.
 */
export async function request<S extends v.GenericSchema>(
  schema: S,
  run: (h: typeof http) => Promise<Response>,
  fallback = 'Request failed.',
): Promise<v.InferOutput<S>> {
  let res: Response;
  try {
    res = await run(http);
  } catch (err) {
    if (err instanceof HTTPError) {
      let message = fallback;
      try {
        const body = v.safeParse(ErrorBodySchema, await err.response.json());
        if (body.success && body.output.error) message = body.output.error;
      } catch {
        /* no JSON body: keep the fallback */
      }
      const retryAfter = Number(err.response.headers.get('Retry-After') ?? NaN);
      throw new ApiRequestError(message, err.response.status, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null);
    }
    throw new ApiRequestError(NETWORK_ERROR, 0);
  }
  const parsed = v.safeParse(schema, await res.json().catch(() => undefined));
  if (!parsed.success) throw new ApiRequestError('The server sent an answer this page cannot read.', res.status);
  return parsed.output;
}

/**
 * Runs a call and replaces the general network text with the area's own network message
 * (docs/client.md §11: e.g. 'Network error fetching events.'). Other failures pass through.
 */
export async function withNetworkMessage<T>(call: Promise<T>, networkMessage: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 0) throw new ApiRequestError(networkMessage, 0);
    throw err;
  }
}

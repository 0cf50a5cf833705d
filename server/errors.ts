import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one typed error of the API (docs/architecture.md §5). Thrown anywhere in a handler or service,
 * answered once by `app.onError` as `{"error": message}` with `status` (400, 401, 403, 404, 409,
 * 413, 429).
 */
export class ApiError extends HTTPException {
  constructor(status: ContentfulStatusCode, message: string) {
    super(status, { message });
  }
}

/** 400 bad input. */
export const badRequest = (message: string) => new ApiError(400, message);
/** 401 not signed in. */
export const unauthorized = (message = 'You must be signed in.') => new ApiError(401, message);
/** 403 with the documented permission text unless another is given (docs/game-rules.md §11). */
export const forbidden = (message = 'Permission denied. You are not authorized to manage this clan.') => new ApiError(403, message);
/** 404 not found. */
export const notFound = (message: string) => new ApiError(404, message);
/** 409 conflict with the current state. */
export const conflict = (message: string) => new ApiError(409, message);

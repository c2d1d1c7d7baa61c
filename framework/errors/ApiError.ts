/**
 * The service's error model: every failed request answers
 * `{"errors":[{code,status,message,scope,detail,request_id}]}` with the codes of the original service.
 */
export const ErrorCode = {
  NO_ROUTE: 1000,
  CONTENTTYPE_UNSUPPORTED: 1001,
  DEMARSHAL_FAILED: 1004,
  BAD_URL_QUERY: 1005,
  PARAM_REQUIRED: 1006,
  PARAM_INVALID: 1007,
  DATABASE: 1100,
  SERVER: 1101,
  RPC: 1102,
  ACCESS_APIKEY_MISSING: 1201,
  ACCESS_APIKEY_INVALID: 1202,
  ACCESS_RATE_LIMITED: 1213,
  ACCESS_READONLY: 1214,
  RESOURCE_ID_MISSING: 1300,
  RESOURCE_ID_MALFORMED: 1301,
  RESOURCE_CONFLICT: 1304,
  RESOURCE_NOTFOUND: 1305,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const MESSAGES: Record<number, string> = {
  400: 'incorrect request syntax',
  401: 'authentication required',
  403: 'access forbidden',
  404: 'resource not found',
  405: 'method not allowed',
  406: 'unsupported response type',
  409: 'resource state conflict',
  413: 'request size exceeds our limits',
  414: 'request URI too long',
  415: 'unsupported media type',
  429: 'request limit exceeded',
  499: 'connection closed',
  500: 'internal server error',
  501: 'not implemented',
  503: 'service temporarily unavailable',
};

export function statusMessage(status: number): string {
  return MESSAGES[status] ?? 'error';
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly scope?: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  static badQuery(detail: string): ApiError {
    return new ApiError(400, ErrorCode.BAD_URL_QUERY, detail);
  }
  static invalid(detail: string): ApiError {
    return new ApiError(400, ErrorCode.PARAM_INVALID, detail);
  }
  static notFound(detail: string): ApiError {
    return new ApiError(404, ErrorCode.RESOURCE_NOTFOUND, detail);
  }
  static malformedId(detail: string): ApiError {
    return new ApiError(400, ErrorCode.RESOURCE_ID_MALFORMED, detail);
  }
  static unsupportedFormat(format: string): ApiError {
    return new ApiError(400, ErrorCode.CONTENTTYPE_UNSUPPORTED, `unsupported format '${format}'`);
  }
  static timeout(detail: string): ApiError {
    return new ApiError(503, ErrorCode.SERVER, detail);
  }

  toBody(requestId: string | undefined, scope: string): object {
    return {
      errors: [
        {
          code: this.code,
          status: this.status,
          message: statusMessage(this.status),
          scope: this.scope ?? scope,
          detail: this.detail,
          ...(requestId ? { request_id: requestId } : {}),
        },
      ],
    };
  }
}

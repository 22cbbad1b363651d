import { contractValidator } from './contract-validator';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  rawBody?: string;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
}

/**
 * A small HTTP client for the tests. Every response it receives is checked against openapi.yaml, so an e2e test
 * cannot pass on a response the contract does not promise.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly credentials: Record<string, string> = {},
    private readonly prefix = '/api/v1',
  ) {}

  withApiKey(secret: string): ApiClient {
    return new ApiClient(this.baseUrl, { 'X-API-Key': secret }, this.prefix);
  }

  withToken(token: string): ApiClient {
    return new ApiClient(this.baseUrl, { Authorization: `Bearer ${token}` }, this.prefix);
  }

  /** The same credentials, acting in the named workspace (`X-Workspace-Id`). */
  inWorkspace(workspaceId: string): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.credentials, 'X-Workspace-Id': workspaceId }, this.prefix);
  }

  /** The same credentials against another path prefix (e.g. the deprecated `/api`). */
  withPrefix(prefix: string): ApiClient {
    return new ApiClient(this.baseUrl, this.credentials, prefix);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const query = options.query
      ? `?${new URLSearchParams(Object.entries(options.query).map(([key, value]) => [key, String(value)]))}`
      : '';
    const url = `${this.prefix}${path}${query}`;
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
        ...this.credentials,
        ...options.headers,
      },
      body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const body = text && /json/.test(contentType ?? '') ? JSON.parse(text) : text || undefined;
    contractValidator().assertResponse(method, url, response.status, contentType, body, response.headers);
    return { status: response.status, headers: response.headers, body: body as T };
  }

  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }
}

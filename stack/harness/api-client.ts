/** A minimal keep-alive HTTP client for the API (node:http, so the load generator adds little overhead). */
import http from 'node:http';
import { nowMs } from './stats';

export interface ApiResponse {
  status: number;
  body: unknown;
}

export interface OrderResult {
  ok: boolean;
  status: number;
  orderId?: number;
  /** Epoch ms when the POST was sent. */
  startedAt: number;
  latencyMs: number;
  /** 500s retried before this result. */
  retries: number;
  error?: string;
}

const products = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

export class ApiClient {
  private readonly agent: http.Agent;
  private seq = 0;

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
    maxSockets = 64,
    /** Orders go to demo users 1..users in turn (the soak seeds more than the demo's 5). */
    private readonly users = 5,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  request(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<ApiResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(new URL(path, this.baseUrl), {
        method,
        agent: this.agent,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${this.apiKey}`,
          Accept: 'application/json',
          ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.end(payload);
    });
  }

  /**
   * POST /api/orders/ with a small valid order (users 1..`users`, demo products). A 500 is retried
   * with jittered exponential backoff for up to `retryForMs`, as a client would: on the embedded
   * FerretDB, concurrent creates draw the same order id and fail with E11000 before anything is
   * written (see bench/README.md). `latencyMs` covers all tries; `retries` counts them.
   * `timeoutMs` bounds each try (the chaos run counts a slow answer as refused).
   */
  async createOrder(retryForMs = 60_000, timeoutMs = 30_000): Promise<OrderResult> {
    const n = this.seq++;
    const body = {
      user_id: (n % this.users) + 1,
      items: [
        { product_id: products[n % products.length]!, quantity: 1 + (n % 3) },
        { product_id: products[(n + 5) % products.length]!, quantity: 1 },
      ],
    };
    const startedAt = nowMs();
    const t0 = performance.now();
    let retries = 0;
    for (;;) {
      try {
        const res = await this.request('POST', '/api/orders/', body, timeoutMs);
        const latencyMs = performance.now() - t0;
        const id = (res.body as { id?: unknown } | undefined)?.id;
        if (res.status === 201 && typeof id === 'number') return { ok: true, status: res.status, orderId: id, startedAt, latencyMs, retries };
        if (res.status === 500 && latencyMs < retryForMs) {
          retries++;
          const backoff = Math.min(1000, 10 * 2 ** Math.min(retries, 7));
          await new Promise((r) => setTimeout(r, backoff / 2 + Math.random() * (backoff / 2)));
          continue;
        }
        return { ok: false, status: res.status, startedAt, latencyMs, retries, error: JSON.stringify(res.body).slice(0, 300) };
      } catch (err) {
        return { ok: false, status: 0, startedAt, latencyMs: performance.now() - t0, retries, error: (err as Error).message };
      }
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `count` tasks with at most `concurrency` in flight (closed loop); stops early once `deadline` (epoch ms) passes. */
export async function closedLoop<T>(count: number, concurrency: number, task: (i: number) => Promise<T>, deadline = Infinity): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < count && nowMs() < deadline) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return results.filter((r) => r !== undefined);
}

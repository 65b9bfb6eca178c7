import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { isExemptFromShedding, loadShedding, yieldPlace } from '../../../src/http/load-shedding';
import { createApiMetrics } from '../../../src/telemetry/metrics';

/** A response double: records status, headers and body; `close()` ends it as Node would. */
class FakeResponse extends EventEmitter {
  statusCode = 200;
  destroyed = false;
  headers: Record<string, string> = {};
  body: unknown;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  type(t: string) {
    this.headers['content-type'] = t;
    return this;
  }
  setHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  json(body: unknown) {
    this.body = body;
    this.close();
    return this;
  }
  /** Ends the answer; 'close' comes only once the client has read it all. */
  end() {
    return this;
  }
  destroy() {
    this.destroyed = true;
    this.close();
  }
  close() {
    this.emit('close');
  }
}

function call(handler: (req: Request, res: Response, next: NextFunction) => void, path = '/api/orders/', socketDestroyed = false) {
  const req = { path, originalUrl: path, socket: { destroyed: socketDestroyed } } as unknown as Request;
  const res = new FakeResponse();
  let passed = false;
  handler(req, res as unknown as Response, () => {
    passed = true;
  });
  return { req, res, passed };
}

async function shedCount(metrics: ReturnType<typeof createApiMetrics>, reason: string): Promise<number> {
  const values = (await metrics.requestsShed.get()).values;
  return values.find((v) => v.labels.reason === reason)?.value ?? 0;
}

describe('loadShedding', () => {
  it('admits up to maxInFlight, answers the next with 503 problem+json and Retry-After, and admits again once one finishes', async () => {
    const metrics = createApiMetrics();
    const shed = loadShedding({ maxInFlight: 2, metrics });
    const first = call(shed.admit);
    const second = call(shed.admit);
    expect([first.passed, second.passed, shed.inFlight()]).toEqual([true, true, 2]);

    const third = call(shed.admit);
    expect(third.passed).toBe(false);
    expect(third.res.statusCode).toBe(503);
    expect(third.res.headers['retry-after']).toBe('1');
    expect(third.res.headers['content-type']).toBe('application/problem+json');
    expect(third.res.body).toMatchObject({ status: 503, title: 'Service Overloaded', instance: '/api/orders/' });
    expect((third.res.body as { detail: string }).detail).toContain('API_MAX_IN_FLIGHT');
    expect(shed.inFlight()).toBe(2);
    expect(await shedCount(metrics, 'in_flight')).toBe(1);

    first.res.close();
    expect(shed.inFlight()).toBe(1);
    expect(call(shed.admit).passed).toBe(true);
    expect((await metrics.requestsInFlight.get()).values[0]?.value).toBe(2);
  });

  it("frees the place once the answer is written, before a client that stops reading has taken it", () => {
    const shed = loadShedding({ maxInFlight: 1 });
    const stalled = call(shed.admit);
    expect(call(shed.admit).passed).toBe(false);
    (stalled.res as unknown as Response).end();
    expect(shed.inFlight()).toBe(0);
    expect(call(shed.admit).passed).toBe(true);
    // Its 'close' when the socket finally goes does not free a second place.
    stalled.res.close();
    expect(shed.inFlight()).toBe(1);
  });

  it('frees the place of a request that yields it (a long poll) once, however it then ends', () => {
    const shed = loadShedding({ maxInFlight: 1 });
    const poll = call(shed.admit);
    expect(call(shed.admit).passed).toBe(false);
    yieldPlace(poll.res as unknown as Response);
    expect(shed.inFlight()).toBe(0);
    const next = call(shed.admit);
    expect(next.passed).toBe(true);
    poll.res.close();
    expect(shed.inFlight()).toBe(1);
  });

  it('takes a place again after a yield only when one is free, and never after the answer', () => {
    const shed = loadShedding({ maxInFlight: 1 });
    const poll = call(shed.admit);
    const retake = yieldPlace(poll.res as unknown as Response);
    const other = call(shed.admit);
    expect(retake()).toBe(false);
    (other.res as unknown as Response).end();
    expect(retake()).toBe(true);
    expect(shed.inFlight()).toBe(1);
    expect(call(shed.admit).passed).toBe(false);
    poll.res.close();
    expect(shed.inFlight()).toBe(0);
    expect(retake()).toBe(false);
  });

  it('never refuses nor counts probes, metrics, docs, the contract and the portal', () => {
    const shed = loadShedding({ maxInFlight: 1 });
    call(shed.admit);
    for (const path of ['/healthz', '/readyz', '/metrics', '/docs', '/docs/assets/redoc.standalone.js', '/openapi.json', '/portal', '/portal/assets/app.js']) {
      expect(isExemptFromShedding(path)).toBe(true);
      expect(call(shed.admit, path).passed, path).toBe(true);
    }
    expect(shed.inFlight()).toBe(1);
    expect(isExemptFromShedding('/api/webhooks/v1/event-types')).toBe(false);
  });

  it('has no bound at 0', () => {
    const shed = loadShedding({ maxInFlight: 0 });
    for (let i = 0; i < 100; i++) expect(call(shed.admit).passed).toBe(true);
    expect(shed.inFlight()).toBe(100);
  });

  it('drops a request whose client has gone, at admission and before its handler, without answering', async () => {
    const metrics = createApiMetrics();
    const shed = loadShedding({ maxInFlight: 5, metrics });
    const gone = call(shed.admit, '/api/orders/', true);
    expect(gone.passed).toBe(false);
    expect(gone.res.destroyed).toBe(true);
    expect(gone.res.body).toBeUndefined();
    expect(shed.inFlight()).toBe(0);

    // Admitted while the client waited, then it gave up: the later check stops it and frees its place.
    const req = { path: '/api/orders/', originalUrl: '/api/orders/', socket: { destroyed: false } } as unknown as Request;
    const res = new FakeResponse();
    let reached = 0;
    shed.admit(req, res as unknown as Response, () => reached++);
    (req.socket as { destroyed: boolean }).destroyed = true;
    shed.stillWanted(req, res as unknown as Response, () => reached++);
    expect(reached).toBe(1);
    expect(res.destroyed).toBe(true);
    expect(shed.inFlight()).toBe(0);
    expect(await shedCount(metrics, 'client_gone')).toBe(2);
  });

  it('answers 503 before the handler when the request waited past maxWaitMs, and lets a prompt one through', async () => {
    let clock = 0;
    const metrics = createApiMetrics();
    const shed = loadShedding({ maxInFlight: 5, maxWaitMs: 1000, metrics, retryAfterSeconds: 2, now: () => clock });
    const prompt = call(shed.admit);
    clock = 1000;
    let passed = false;
    shed.stillWanted(prompt.req, prompt.res as unknown as Response, () => (passed = true));
    expect(passed).toBe(true);

    const late = call(shed.admit);
    clock = 2001;
    shed.stillWanted(late.req, late.res as unknown as Response, () => expect.unreachable('the handler must not run'));
    expect(late.res.statusCode).toBe(503);
    expect(late.res.headers['retry-after']).toBe('2');
    expect((late.res.body as { detail: string }).detail).toContain('API_MAX_WAIT');
    expect(await shedCount(metrics, 'deadline')).toBe(1);
  });

  it('is saturated only once every place has stayed taken for saturatedAfterMs, and not after one frees', () => {
    let clock = 0;
    const shed = loadShedding({ maxInFlight: 2, saturatedAfterMs: 1000, now: () => clock });
    const first = call(shed.admit);
    clock = 5000;
    expect(shed.saturated()).toBe(false);
    call(shed.admit);
    clock = 5999;
    expect(shed.saturated()).toBe(false);
    clock = 6000;
    expect(shed.saturated()).toBe(true);
    first.res.close();
    expect(shed.saturated()).toBe(false);
    call(shed.admit);
    expect(shed.saturated()).toBe(false);
  });

  it('is never saturated without a bound', () => {
    let clock = 0;
    const shed = loadShedding({ maxInFlight: 0, now: () => clock });
    for (let i = 0; i < 5; i++) call(shed.admit);
    clock = 60_000;
    expect(shed.saturated()).toBe(false);
  });
});


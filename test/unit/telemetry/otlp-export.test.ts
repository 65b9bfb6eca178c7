import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config';
import { tracingFromConfig } from '../../../src/telemetry/tracing';

describe('tracing from the environment', () => {
  const received: { url: string; contentType: string | undefined; bytes: number }[] = [];
  const collector = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ url: req.url!, contentType: req.headers['content-type'], bytes });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  afterAll(() => new Promise<void>((r) => collector.close(() => r())));

  it('is off without an OTLP endpoint', () => {
    expect(tracingFromConfig(loadConfig({}).tracing, 'api')).toBeUndefined();
  });

  it('exports spans as OTLP/HTTP protobuf to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces', async () => {
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const tracing = tracingFromConfig(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }).tracing, 'api')!;
    tracing.tracer.startSpan('probe').end();
    await tracing.shutdown();
    expect(received).toEqual([{ url: '/v1/traces', contentType: 'application/x-protobuf', bytes: expect.any(Number) as number }]);
    expect(received[0]!.bytes).toBeGreaterThan(0);
  });
});

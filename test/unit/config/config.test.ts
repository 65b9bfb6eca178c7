import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_INLINE_LIMIT, loadConfig } from '../../../src/config/config';

describe('loadConfig', () => {
  it('bounds API connections per client address and in all, 0 meaning none', () => {
    expect(loadConfig({}).api.connections).toEqual({ maxPerPeer: 512, maxConnections: 4096 });
    expect(loadConfig({ API_MAX_CONNECTIONS_PER_PEER: '0', API_MAX_CONNECTIONS: '0' }).api.connections).toEqual({ maxPerPeer: 0, maxConnections: 0 });
    expect(() => loadConfig({ API_MAX_CONNECTIONS_PER_PEER: '-1' })).toThrow(ConfigError);
  });

  it('reuses a read subscription for SUBSCRIPTION_CACHE_TTL, 1 s by default, 0 meaning never, at most 10 minutes', () => {
    expect(loadConfig({}).delivery.subscriptionCacheTtlMs).toBe(1000);
    expect(loadConfig({ SUBSCRIPTION_CACHE_TTL: '0' }).delivery.subscriptionCacheTtlMs).toBe(0);
    expect(loadConfig({ SUBSCRIPTION_CACHE_TTL: '250ms' }).delivery.subscriptionCacheTtlMs).toBe(250);
    expect(() => loadConfig({ SUBSCRIPTION_CACHE_TTL: '11m' })).toThrow(ConfigError);
    expect(() => loadConfig({ SUBSCRIPTION_CACHE_TTL: 'soon' })).toThrow(ConfigError);
    // A bare 0 is no shortcut for durations that cannot be 0.
    expect(() => loadConfig({ RELAY_INTERVAL: '0' })).toThrow(ConfigError);
  });

  it('applies documented defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(c.mongo.uri).toBeUndefined();
    expect(c.mongo.connectUri).toBe('mongodb://127.0.0.1:27017/');
    expect(c.mongo.dbName).toBe('webhooks');
    expect(c.temporal).toMatchObject({
      address: undefined,
      connectAddress: '127.0.0.1:7233',
      namespace: 'default',
      taskQueue: 'webhook-deliveries',
      uiPort: 8233,
    });
  });

  it('uses external servers when their variables are set', () => {
    const c = loadConfig({ MONGODB_URI: 'mongodb://db.internal:27017/?replicaSet=rs0', TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(c.mongo.connectUri).toBe('mongodb://db.internal:27017/?replicaSet=rs0');
    expect(c.temporal.connectAddress).toBe('temporal:7233');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ MONGODB_URI: '', TEMPORAL_ADDRESS: '' }).mongo.uri).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI'],
    [{ TEMPORAL_UI_PORT: '0' }, 'TEMPORAL_UI_PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MONGODB_DB: 'a/b' }, 'MONGODB_DB'],
  ])('fails fast naming the variable: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid environment configuration:\\n  ${name}: `));
  });
});

describe('PUBLIC_URL', () => {
  const production = { NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: `k1:${Buffer.alloc(32, 1).toString('base64')}` };
  it('is required in production: links must never be taken from a request', () => {
    expect(() => loadConfig(production)).toThrow(/\n {2}PUBLIC_URL: is required when NODE_ENV=production/);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://hooks.example.com/' }).api.portal.publicUrl).toBe('https://hooks.example.com');
  });
  it('may be unset outside production', () => {
    expect(loadConfig({}).api.portal.publicUrl).toBeUndefined();
  });
});

describe('delivery configuration', () => {
  it('parses the schedule, attempts and timeout with the documented defaults', () => {
    const c = loadConfig({});
    expect(c.delivery.policy).toEqual({ scheduleMs: [1, 5, 15, 30, 60, 120].map((m) => m * 60_000), maxAttempts: 7, jitterRatio: 0.1 });
    expect(c.delivery.timeoutMs).toBe(5000);
    expect(loadConfig({ DELIVERY_RETRY_SCHEDULE: '500ms,2s,1h', DELIVERY_TIMEOUT: '1.5s' }).delivery).toMatchObject({
      policy: { scheduleMs: [500, 2000, 3_600_000] },
      timeoutMs: 1500,
    });
  });

  it.each([
    [{ DELIVERY_RETRY_SCHEDULE: '1m,,5m' }, 'DELIVERY_RETRY_SCHEDULE'],
    [{ DELIVERY_RETRY_SCHEDULE: '5 minutes' }, 'DELIVERY_RETRY_SCHEDULE'],
    [{ DELIVERY_MAX_ATTEMPTS: '4' }, 'DELIVERY_MAX_ATTEMPTS'],
    [{ DELIVERY_MAX_ATTEMPTS: '11' }, 'DELIVERY_MAX_ATTEMPTS'],
    [{ DELIVERY_TIMEOUT: '2m' }, 'DELIVERY_TIMEOUT'],
    [{ ADMIN_ALERT_URL: 'https://ops.example.com/alerts' }, 'ADMIN_ALERT_SECRET'],
    [{ ADMIN_API_KEY: 'short' }, 'ADMIN_API_KEY'],
  ])('rejects %o naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\n  ${name}: `));
  });
});

describe('DELIVERY_SOURCE_ADDRESS', () => {
  it('is unset by default: the system chooses the source', () => {
    expect(loadConfig({}).delivery.sourceAddress).toBeUndefined();
    expect(loadConfig({ DELIVERY_SOURCE_ADDRESS: '' }).delivery.sourceAddress).toBeUndefined();
  });

  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 10.1.2.3 ', '10.1.2.3'],
    ['2001:DB8:0:0::7', '2001:db8::7'],
    // An IPv4-mapped address is bound as the IPv4 address it carries.
    ['::ffff:198.51.100.4', '198.51.100.4'],
  ])('accepts %s as %s', (value, address) => {
    expect(loadConfig({ DELIVERY_SOURCE_ADDRESS: value }).delivery.sourceAddress).toBe(address);
  });

  it.each(['example.com', '203.0.113.7:8080', '203.0.113.0/24', 'fe80::1%eth0', '256.1.1.1', '0.0.0.0', '::', '224.0.0.1', 'ff02::1'])('rejects %s naming the variable', (value) => {
    expect(() => loadConfig({ DELIVERY_SOURCE_ADDRESS: value })).toThrow(/\n {2}DELIVERY_SOURCE_ADDRESS: /);
  });

  it('accepts a loopback or link-local source only with CALLBACK_ALLOW_PRIVATE=true, where they can reach a callback', () => {
    expect(() => loadConfig({ DELIVERY_SOURCE_ADDRESS: '127.0.0.2' })).toThrow(/DELIVERY_SOURCE_ADDRESS: 127\.0\.0\.2 is a loopback address: .*CALLBACK_ALLOW_PRIVATE=true/);
    expect(() => loadConfig({ DELIVERY_SOURCE_ADDRESS: '::1' })).toThrow(/DELIVERY_SOURCE_ADDRESS: ::1 is a loopback address/);
    expect(() => loadConfig({ DELIVERY_SOURCE_ADDRESS: '169.254.1.1' })).toThrow(/DELIVERY_SOURCE_ADDRESS: 169\.254\.1\.1 is a link-local address/);
    expect(loadConfig({ DELIVERY_SOURCE_ADDRESS: '127.0.0.2', CALLBACK_ALLOW_PRIVATE: 'true' }).delivery.sourceAddress).toBe('127.0.0.2');
  });
});

describe('DELIVERY_PROXY_URL', () => {
  it('is unset by default: POSTs go straight out', () => {
    expect(loadConfig({}).delivery.proxy).toBeUndefined();
    expect(loadConfig({ DELIVERY_PROXY_URL: '' }).delivery.proxy).toBeUndefined();
  });

  it('takes an http proxy, on loopback too (operator config), with its user info as Proxy-Authorization', () => {
    expect(loadConfig({ DELIVERY_PROXY_URL: 'http://127.0.0.1:3128' }).delivery.proxy).toEqual({ host: '127.0.0.1', port: 3128 });
    expect(loadConfig({ DELIVERY_PROXY_URL: 'http://[::1]:8080/' }).delivery.proxy).toEqual({ host: '::1', port: 8080 });
    expect(loadConfig({ DELIVERY_PROXY_URL: 'http://egress.internal' }).delivery.proxy).toEqual({ host: 'egress.internal', port: 80 });
    expect(loadConfig({ DELIVERY_PROXY_URL: 'http://us%40r:p%3Ass@proxy.internal:3128' }).delivery.proxy).toEqual({
      host: 'proxy.internal',
      port: 3128,
      authorization: `Basic ${Buffer.from('us@r:p:ss').toString('base64')}`,
    });
  });

  it.each(['proxy.internal:3128', 'https://proxy.internal:3128', 'socks5://127.0.0.1:1080', 'http://proxy.internal:3128/path', 'http://proxy.internal:3128/?x=1'])('rejects %s naming the variable', (value) => {
    expect(() => loadConfig({ DELIVERY_PROXY_URL: value })).toThrow(/\n {2}DELIVERY_PROXY_URL: /);
  });
});

describe('delivery payloads: PUBLIC_URL and WEBHOOK_INLINE_LIMIT', () => {
  it('links events to PUBLIC_URL, without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://hooks.example.com/' }).delivery.payloads.apiUrl).toBe('https://hooks.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080', HOST: '0.0.0.0' }).delivery.payloads.apiUrl).toBe('http://10.0.0.5:8080');
  });

  it.each([
    [{}, 'http://127.0.0.1:3000'],
    [{ HOST: 'api.internal', PORT: '8080' }, 'http://api.internal:8080'],
    // A wildcard listen address names no host a receiver could reach: localhost stands for it.
    [{ HOST: '0.0.0.0' }, 'http://localhost:3000'],
    [{ HOST: '::' }, 'http://localhost:3000'],
    [{ HOST: '::1', PORT: '3100' }, 'http://[::1]:3100'],
  ])('without PUBLIC_URL, links to the API\'s own address (%o: %s)', (env, origin) => {
    expect(loadConfig(env).delivery.payloads.apiUrl).toBe(origin);
  });

  it('inlines envelopes of up to 4096 bytes by default, and takes 1024 bytes to 1 MiB', () => {
    expect(loadConfig({}).delivery.payloads.inlineLimit).toBe(DEFAULT_INLINE_LIMIT);
    expect(DEFAULT_INLINE_LIMIT).toBe(4096);
    expect(loadConfig({ WEBHOOK_INLINE_LIMIT: '1024' }).delivery.payloads.inlineLimit).toBe(1024);
    expect(loadConfig({ WEBHOOK_INLINE_LIMIT: '1048576' }).delivery.payloads.inlineLimit).toBe(1_048_576);
  });

  it.each(['1023', '1048577', '4kb', '-1', '4096.5', 'off'])('rejects WEBHOOK_INLINE_LIMIT=%s naming the variable', (value) => {
    expect(() => loadConfig({ WEBHOOK_INLINE_LIMIT: value })).toThrow(/\n {2}WEBHOOK_INLINE_LIMIT: /);
  });
});

describe('observability configuration', () => {
  it('logs pretty to a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });

  it('serves metrics by default (worker on 9464) and turns both off with METRICS_ENABLED=false', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true, token: undefined, workerPort: 9464, dbCommands: false });
    expect(loadConfig({ WORKER_METRICS_PORT: '0' }).metrics.workerPort).toBe(0);
    expect(loadConfig({ METRICS_ENABLED: 'false' }).metrics).toMatchObject({ enabled: false, workerPort: 0 });
    // Command monitoring costs CPU on every command: only when asked for, and never without metrics.
    expect(loadConfig({}).metrics.dbCommands).toBe(false);
    expect(loadConfig({ DB_COMMAND_METRICS: 'true' }).metrics.dbCommands).toBe(true);
    expect(loadConfig({ DB_COMMAND_METRICS: 'true', METRICS_ENABLED: 'false' }).metrics.dbCommands).toBe(false);
  });

  it('traces only when an OTLP endpoint is set, honouring the standard switches', () => {
    expect(loadConfig({}).tracing).toEqual({ enabled: false });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing).toEqual({
      enabled: true,
      serviceName: 'webhook-service',
      url: 'http://collector:4318/v1/traces',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom', OTEL_SERVICE_NAME: 'hooks' }).tracing).toMatchObject({ url: 'http://c:4318/custom', serviceName: 'hooks' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing.enabled).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing.enabled).toBe(false);
  });

  it.each([
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ WORKER_METRICS_PORT: '70000' }, 'WORKER_METRICS_PORT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_TRACES_EXPORTER: 'jaeger' }, 'OTEL_TRACES_EXPORTER'],
  ])('rejects %o naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\n  ${name}: `));
  });
});

import { describe, expect, it } from 'vitest';
import { temporalDevServerArgs } from '../../../stack/runtime/temporal-dev-server';

const base = { binary: 'temporal', port: 7233, uiPort: 8233, dbFile: '/d/temporal.sqlite', namespace: 'default' };

describe('temporal server start-dev arguments', () => {
  it('persists to the SQLite file in WAL mode, registers the search attributes and serves the UI', () => {
    const args = temporalDevServerArgs(base);
    expect(args.slice(0, 2)).toEqual(['server', 'start-dev']);
    expect(args.join(' ')).toContain('--db-filename /d/temporal.sqlite');
    expect(args.join(' ')).toContain('--sqlite-pragma journal_mode=WAL --sqlite-pragma synchronous=NORMAL');
    for (const sa of ['WebhookEventId', 'WebhookEventType', 'WebhookDeliveryState']) expect(args).toContain(`${sa}=Keyword`);
    for (const sa of ['WebhookSubscriptionIds', 'WebhookRetryingSubscriptionIds', 'WebhookFailedSubscriptionIds']) expect(args).toContain(`${sa}=KeywordList`);
    expect(args.join(' ')).toContain('--ui-port 8233');
    expect(args).not.toContain('--namespace');
  });

  it('registers no search attributes when asked (tests of the worker setting them up itself)', () => {
    expect(temporalDevServerArgs({ ...base, searchAttributes: false })).not.toContain('--search-attribute');
  });

  it('runs task queues as one partition each (a single node gains nothing from more)', () => {
    const args = temporalDevServerArgs(base).join(' ');
    expect(args).toContain('--dynamic-config-value matching.numTaskqueueReadPartitions=1');
    expect(args).toContain('--dynamic-config-value matching.numTaskqueueWritePartitions=1');
  });

  it('lets the transfer queue load as often as tasks come (one shard: its default 20 loads/s paced events)', () => {
    expect(temporalDevServerArgs(base).join(' ')).toContain('--dynamic-config-value history.transferProcessorMaxPollRPS=1000');
  });

  it('reads its search attributes from its cache, not from SQLite on every use (they are all registered at start)', () => {
    expect(temporalDevServerArgs(base).join(' ')).toContain('--dynamic-config-value system.forceSearchAttributesCacheRefreshOnRead=false');
  });

  it('tests trade durability for speed and run headless; other namespaces are created', () => {
    const args = temporalDevServerArgs({ ...base, fastSqlite: true, headless: true, namespace: 'hooks' }).join(' ');
    expect(args).toContain('synchronous=OFF');
    expect(args).toContain('--headless');
    expect(args).not.toContain('--ui-port');
    expect(args).toContain('--namespace hooks');
  });
});

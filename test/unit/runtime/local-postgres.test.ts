import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_CONNECTIONS } from '../../../stack/runtime/local-temporal-cluster';
import { serverArgs } from '../../../stack/runtime/local-postgres';

const setting = (args: string[], key: string) => args.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);

describe('the private PostgreSQL server settings', () => {
  it('allow 200 connections unless told, and what a Temporal cluster needs when asked', () => {
    expect(setting(serverArgs('/data', 5432, false), 'max_connections')).toBe('200');
    expect(setting(serverArgs('/data', 5432, false, CLUSTER_MAX_CONNECTIONS), 'max_connections')).toBe('300');
  });

  it('preload pg_stat_statements only when the installation ships it', () => {
    expect(setting(serverArgs('/data', 5432, false, 200, true), 'shared_preload_libraries')).toBe('pg_stat_statements');
    expect(setting(serverArgs('/data', 5432, false), 'shared_preload_libraries')).toBeUndefined();
  });
});

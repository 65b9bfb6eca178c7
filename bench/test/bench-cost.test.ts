import { describe, expect, it } from 'vitest';
import { isServiceRole, serviceCpu } from '../lib/context';
import { CostMeter, diffCounts, parseDbCommands } from '../lib/cost';

describe("the bench's database cost", () => {
  const scrape = [
    '# HELP db_commands_total Database commands this process sent',
    '# TYPE db_commands_total counter',
    'db_commands_total{command="insert",collection="orders",component="api"} 3',
    'db_commands_total{command="find",collection="stock",component="api"} 6',
    'db_commands_total{command="endSessions",collection="",component="api"} 1',
    'webhook_events_emitted_total{event_type="order.created",component="api"} 3',
  ].join('\n');

  it('reads db_commands_total by command and collection, and nothing else', () => {
    expect(parseDbCommands(scrape)).toEqual({ 'insert orders': 3, 'find stock': 6, endSessions: 1 });
  });

  it('diffs two readings, most first, and gives up when a counter went back (a restart)', () => {
    expect(diffCounts({ 'insert orders': 1, 'find stock': 2 }, { 'insert orders': 3, 'find stock': 6, 'delete x': 1 })).toEqual({ 'find stock': 4, 'insert orders': 2, 'delete x': 1 });
    expect(diffCounts({ 'insert orders': 5 }, { 'insert orders': 1 })).toBeUndefined();
  });

  it('gives commands per order and per delivery, and statements per order', () => {
    const before = { api: { 'insert orders': 0 }, worker: {}, sql: { statements: 100, commits: 10, rollbacks: 0 } };
    const after = { api: { 'insert orders': 10, 'find stock': 20 }, worker: { 'insert attempts': 50 }, sql: { statements: 400, commits: 60, rollbacks: 0 } };
    expect(CostMeter.diff(before, after, 10, 50)).toMatchObject({
      apiCommands: 30,
      apiCommandsPerOrder: 3,
      workerCommandsPerDelivery: 1,
      sqlStatementsPerOrder: 30,
      sqlCommitsPerOrder: 5,
      sqlStatementsPerDelivery: 6,
    });
  });

  it('leaves out what it could not read', () => {
    const c = CostMeter.diff({}, {}, 10, 10);
    expect(c.apiCommandsPerOrder).toBeUndefined();
    expect(c.sqlStatementsPerOrder).toBeUndefined();
  });

  it("counts PostgreSQL's CPU as the service's, the receiver's and the bench's apart", () => {
    expect(['api', 'worker-1', 'temporal', 'db', 'postgres'].every(isServiceRole)).toBe(true);
    expect(['receiver', 'bench'].some(isServiceRole)).toBe(false);
    const usage = { wallSeconds: 1, machineBusySeconds: 2, machineTotalSeconds: 2, perRole: { api: 0.1, worker: 0.2, temporal: 0.3, db: 0.1, postgres: 0.2, receiver: 0.5, bench: 0.4 } };
    expect(serviceCpu(usage)).toBeCloseTo(0.9);
  });
});

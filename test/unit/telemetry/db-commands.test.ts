import { EventEmitter } from 'node:events';
import type { MongoClient } from 'mongodb';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { commandLabels, countDbCommands, dbCommandCounter } from '../../../src/telemetry/db-commands';

describe('database command labels', () => {
  it('names the collection a command targets', () => {
    expect(commandLabels({ commandName: 'find', command: { find: 'orders', filter: { _id: '1' } } })).toEqual({ command: 'find', collection: 'orders' });
    expect(commandLabels({ commandName: 'findAndModify', command: { findAndModify: 'rate_limits' } })).toEqual({ command: 'findAndModify', collection: 'rate_limits' });
  });

  it("takes getMore's collection from its own field, not the cursor id", () => {
    expect(commandLabels({ commandName: 'getMore', command: { getMore: 12345n, collection: 'events' } })).toEqual({ command: 'getMore', collection: 'events' });
  });

  it('leaves the collection empty when the command names none', () => {
    expect(commandLabels({ commandName: 'aggregate', command: { aggregate: 1, pipeline: [] } })).toEqual({ command: 'aggregate', collection: '' });
    expect(commandLabels({ commandName: 'ping', command: { ping: 1 } })).toEqual({ command: 'ping', collection: '' });
  });

  it('counts each started command once, by name and collection', async () => {
    const counter = dbCommandCounter(new Registry());
    const client = new EventEmitter();
    countDbCommands(client as unknown as MongoClient, counter);
    client.emit('commandStarted', { commandName: 'insert', command: { insert: 'orders' } });
    client.emit('commandStarted', { commandName: 'insert', command: { insert: 'orders' } });
    client.emit('commandStarted', { commandName: 'find', command: { find: 'stock' } });
    const values = (await counter.get()).values.map((v) => [v.labels.command, v.labels.collection, v.value]);
    expect(values).toEqual([
      ['insert', 'orders', 2],
      ['find', 'stock', 1],
    ]);
  });
});

import type { CommandStartedEvent, MongoClient } from 'mongodb';
import { Counter, type Registry } from 'prom-client';

/** Database commands sent by this process, by command name and collection (`db_commands_total`). */
export type DbCommandCounter = Counter<'command' | 'collection'>;

/** The labels of one command: its name and the collection it names ('' when it names none, e.g. `aggregate: 1`, `endSessions`). */
export interface DbCommandLabels {
  command: string;
  collection: string;
}

/** The `db_commands_total` counter, registered in `registry`. */
export function dbCommandCounter(registry: Registry): DbCommandCounter {
  return new Counter({
    name: 'db_commands_total',
    help: 'Database commands this process sent (driver command monitoring), by command name and collection; one round trip each.',
    labelNames: ['command', 'collection'],
    registers: [registry],
  });
}

/**
 * The labels of a started command. The collection is the command's first field's value when it
 * is a name (`find: 'orders'`, `getMore`'s `collection`): both are bounded by the code, never data.
 */
export function commandLabels(e: Pick<CommandStartedEvent, 'commandName' | 'command'>): DbCommandLabels {
  const target: unknown = e.commandName === 'getMore' ? e.command.collection : e.command[e.commandName];
  return { command: e.commandName, collection: typeof target === 'string' ? target : '' };
}

/**
 * Counts every command `client` starts into `counter`. The client must have been created with
 * `monitorCommands: true`; without it the driver emits nothing and counting costs nothing.
 */
export function countDbCommands(client: MongoClient, counter: DbCommandCounter): void {
  client.on('commandStarted', (e) => counter.inc(commandLabels(e)));
}

import { context, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';

/**
 * A client span per database command, from the driver's command monitoring (the client must be
 * created with `monitorCommands: true`): each is a child of the span active where the command
 * was issued, named `mongodb.<command> <collection>`. No statement is recorded: documents carry
 * secrets and personal data.
 */
export function traceMongoCommands(client: MongoClient, tracer: Tracer): void {
  const open = new Map<number, Span>();
  client.on('commandStarted', (e: CommandStartedEvent) => {
    const target: unknown = e.command[e.commandName];
    const collection = typeof target === 'string' ? target : undefined;
    const span = tracer.startSpan(
      `mongodb.${e.commandName}${collection ? ` ${collection}` : ''}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system': 'mongodb',
          'db.namespace': e.databaseName,
          'db.operation.name': e.commandName,
          ...(collection ? { 'db.collection.name': collection } : {}),
        },
      },
      context.active(),
    );
    open.set(e.requestId, span);
  });
  const end = (e: CommandSucceededEvent | CommandFailedEvent, failure?: Error) => {
    const span = open.get(e.requestId);
    if (!span) return;
    open.delete(e.requestId);
    if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    span.end();
  };
  client.on('commandSucceeded', (e) => end(e));
  client.on('commandFailed', (e) => end(e, e.failure));
}


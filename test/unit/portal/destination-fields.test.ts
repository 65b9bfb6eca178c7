import { describe, expect, it } from 'vitest';
import { describeDestination, destinationBody, emptyDestinationFields } from '../../../src/portal/ui/destination-fields';
import { initialFormState } from '../../../src/portal/ui/subscription-body';
import type { Subscription } from '../../../src/contract/types';

const pull = (ackDeadlineSeconds: string) => destinationBody('pull', { ...emptyDestinationFields, ackDeadlineSeconds }, false);

describe('the pull destination boxes', () => {
  it('send the ack deadline when one is entered, and leave it to the service when empty', () => {
    expect(pull('')).toEqual({ destination: { type: 'pull' } });
    expect(pull(' 120 ')).toEqual({ destination: { type: 'pull', ack_deadline_seconds: 120 } });
  });

  it.each(['4', '601', '2.5', 'soon'])('refuse %s, naming the bounds', (text) => {
    expect(pull(text)).toEqual({ error: 'The ack deadline must be a whole number of seconds from 5 to 600.' });
  });

  it("show a pull subscription's deadline to edit, and in the detail", () => {
    const editing = { destination: { type: 'pull', ack_deadline_seconds: 45 }, retry: { source: 'service' } } as unknown as Subscription;
    expect(initialFormState(editing).destinationFields.ackDeadlineSeconds).toBe('45');
    expect(describeDestination({ type: 'pull', ack_deadline_seconds: 45 })).toBe('Pull: an inbox its consumer reads over the API (outcome due within 45 s)');
  });
});

describe('the portal destination box', () => {
  const nats = { ...emptyDestinationFields, subject: ' webhooks.orders ' };

  it('sends a NATS destination with a user and password, a token, or no credentials', () => {
    expect(destinationBody('nats', { ...nats, username: 'hooks', password: 'pw' }, false)).toEqual({ destination: { type: 'nats', subject: 'webhooks.orders', username: 'hooks', password: 'pw' } });
    expect(destinationBody('nats', { ...nats, token: 'tok' }, false)).toEqual({ destination: { type: 'nats', subject: 'webhooks.orders', token: 'tok' } });
    expect(destinationBody('nats', nats, false)).toEqual({ destination: { type: 'nats', subject: 'webhooks.orders' } });
  });

  it('says what is missing or mixed before sending', () => {
    expect(destinationBody('nats', emptyDestinationFields, false)).toEqual({ error: 'Enter the subject for the NATS destination.' });
    expect(destinationBody('nats', { ...nats, username: 'hooks' }, false)).toEqual({ error: 'Enter the password for the NATS destination.' });
    expect(destinationBody('nats', { ...nats, username: 'hooks', password: 'pw', token: 'tok' }, false)).toEqual({ error: 'Enter a token or a user name and password for the NATS destination, not both.' });
  });

  it('sends a Redis stream with its optional length and credentials', () => {
    const redis = { ...emptyDestinationFields, stream: 'webhooks:orders' };
    expect(destinationBody('redis', { ...redis, maxlen: '1000', password: 'pw' }, false)).toEqual({ destination: { type: 'redis', stream: 'webhooks:orders', maxlen: 1000, password: 'pw' } });
    expect(destinationBody('redis', { ...redis, username: 'hooks', password: 'pw' }, false)).toEqual({ destination: { type: 'redis', stream: 'webhooks:orders', username: 'hooks', password: 'pw' } });
    expect(destinationBody('redis', { ...redis, maxlen: '1e3' }, false)).toHaveProperty('error');
    expect(destinationBody('redis', { ...redis, username: 'hooks' }, false)).toEqual({ error: 'Enter the password for the Redis destination.' });
    expect(describeDestination({ type: 'redis', stream: 'webhooks:orders', maxlen: 1000 })).toBe('Redis stream "webhooks:orders", trimmed to about 1000 entries (credentials hidden)');
  });

  it('sends an SQS destination with its region and keys, saying what is missing', () => {
    const sqs = { ...emptyDestinationFields, region: ' eu-west-1 ', username: ' AKIAIOSFODNN7EXAMPLE ', password: 'sqs-secret' };
    expect(destinationBody('sqs', sqs, false)).toEqual({ destination: { type: 'sqs', region: 'eu-west-1', access_key_id: 'AKIAIOSFODNN7EXAMPLE', secret_access_key: 'sqs-secret' } });
    expect(destinationBody('sqs', { ...sqs, region: '' }, false)).toEqual({ error: 'Enter the region for the SQS destination.' });
    expect(destinationBody('sqs', { ...sqs, username: '' }, false)).toEqual({ error: 'Enter the access key ID for the SQS destination.' });
    expect(destinationBody('sqs', { ...sqs, password: '' }, false)).toEqual({ error: 'Enter the secret access key for the SQS destination.' });
    expect(describeDestination({ type: 'sqs', region: 'eu-west-1' })).toBe('Amazon SQS: the queue in the URL, region eu-west-1 (credentials hidden)');
  });

  it('describes a NATS destination by its subject only', () => {
    expect(describeDestination({ type: 'nats', subject: 'webhooks.orders' })).toBe('NATS JetStream: subject "webhooks.orders" (credentials hidden)');
  });
});

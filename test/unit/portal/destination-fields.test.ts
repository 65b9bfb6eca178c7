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

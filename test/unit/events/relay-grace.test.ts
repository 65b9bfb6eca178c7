import { describe, expect, it } from 'vitest';
import { relayGraceMs } from '../../../src/events/relay';

describe('relayGraceMs', () => {
  it('leaves a note to the API that may still be starting its workflow', () => {
    expect(relayGraceMs(500)).toBe(5000);
    expect(relayGraceMs(1000)).toBe(5000);
  });

  it('is the interval when the relay runs less often than that', () => {
    expect(relayGraceMs(30_000)).toBe(30_000);
  });
});

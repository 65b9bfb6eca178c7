import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { defaultOverlapSeconds, maxOverlapSeconds, overlapChoiceText, overlapChoices, overlapLabel } from '../../../src/portal/ui/rotation-overlap';

describe("the portal's rotation overlap picker", () => {
  it('offers none, 1 hour, 1 day (the default) and 7 days, all within the contract', () => {
    expect(overlapChoices.map(overlapChoiceText)).toEqual(['None: the old secret stops signing at once', '1 hour', '1 day (default)', '7 days']);
    expect(overlapChoices).toContain(defaultOverlapSeconds);
    expect(overlapChoices.every((s) => Number.isInteger(s) && s >= 0 && s <= maxOverlapSeconds)).toBe(true);
    // The picker's bounds are the contract's, read from it.
    const contract = parse(readFileSync('openapi/openapi.yaml', 'utf8')) as { components: { schemas: Record<string, { properties: Record<string, { maximum: number; default: number }> }> } };
    const field = contract.components.schemas.SecretRotation!.properties.expire_previous_in_seconds!;
    expect([maxOverlapSeconds, defaultOverlapSeconds]).toEqual([field.maximum, field.default]);
  });

  it('names an overlap in its largest whole unit', () => {
    expect(overlapLabel(0)).toBe('none');
    expect(overlapLabel(90)).toBe('90 seconds');
    expect(overlapLabel(120)).toBe('2 minutes');
    expect(overlapLabel(3_600)).toBe('1 hour');
    expect(overlapLabel(2 * 86_400)).toBe('2 days');
  });
});

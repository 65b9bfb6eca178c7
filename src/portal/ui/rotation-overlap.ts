/** Longest overlap `SecretRotation.expire_previous_in_seconds` allows (7 days). */
export const maxOverlapSeconds = 604_800;
/** The contract's default overlap (1 day): preselected. */
export const defaultOverlapSeconds = 86_400;

/** The overlaps the rotation picker offers, in seconds. */
export const overlapChoices: readonly number[] = [0, 3_600, defaultOverlapSeconds, maxOverlapSeconds];

const units: readonly [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** An overlap for people: `none`, `1 hour`, `1 day`, `7 days` (the largest unit that divides it). */
export function overlapLabel(seconds: number): string {
  if (seconds <= 0) return 'none';
  const [size, name] = units.find(([size]) => seconds % size === 0) ?? [1, 'second'];
  const n = seconds / size;
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}

/** A picker option's text: what the choice means for the old secret. */
export function overlapChoiceText(seconds: number): string {
  if (seconds <= 0) return 'None: the old secret stops signing at once';
  return `${overlapLabel(seconds)}${seconds === defaultOverlapSeconds ? ' (default)' : ''}`;
}

import { describe, expect, it } from 'vitest';
import { hashWithoutToken, tokenFromHash } from '../../../src/portal/ui/token';

const token = 'whps_eyJzaWQiOiJwc18xIn0.c2lnbmF0dXJl-_x';

describe('the portal link\'s token', () => {
  it('is read from the fragment, with or without its #', () => {
    expect(tokenFromHash(`#token=${token}`)).toBe(token);
    expect(tokenFromHash(`token=${token}`)).toBe(token);
    expect(tokenFromHash(`#view=attempts&token=${token}`)).toBe(token);
  });

  it('is absent when the fragment has none or something not shaped like a session token', () => {
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#')).toBeUndefined();
    expect(tokenFromHash('#token=')).toBeUndefined();
    expect(tokenFromHash('#token=whk_live_apikey')).toBeUndefined();
    expect(tokenFromHash('#token=whps_nodot')).toBeUndefined();
    expect(tokenFromHash(`#token=${token}<script>`)).toBeUndefined();
  });

  it('is removed from the fragment, keeping anything else', () => {
    expect(hashWithoutToken(`#token=${token}`)).toBe('');
    expect(hashWithoutToken(`#view=attempts&token=${token}`)).toBe('#view=attempts');
    expect(hashWithoutToken('')).toBe('');
  });
});

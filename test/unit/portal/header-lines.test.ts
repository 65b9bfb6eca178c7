import { describe, expect, it } from 'vitest';
import { parseHeaderLines } from '../../../src/portal/ui/header-lines';

describe('the portal header lines', () => {
  it('reads one Name: value per line, skipping blank lines and keeping colons in values', () => {
    expect(parseHeaderLines('X-Tenant: acme\n\n  X-Url: https://a.example:8443 \n')).toEqual({ headers: { 'X-Tenant': 'acme', 'X-Url': 'https://a.example:8443' } });
    expect(parseHeaderLines('')).toEqual({ headers: {} });
  });
  it('names the line without a colon', () => {
    expect(parseHeaderLines('X-Ok: 1\nbroken')).toEqual({ error: 'Header line 2 needs the form "Name: value".' });
  });
});

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/openapi';
import { examplePayload, type JsonSchema } from '../../../src/portal/ui/example-payload';
import { eventCatalog } from '../../../src/webhooks/event-catalog';

describe('the portal\'s example payload generator', () => {
  it('prefers the schema\'s own example, then examples, const, default and enum', () => {
    expect(examplePayload({ type: 'string', example: 'given', examples: ['other'] })).toBe('given');
    expect(examplePayload({ type: 'string', examples: ['first', 'second'] })).toBe('first');
    expect(examplePayload({ const: 3 })).toBe(3);
    expect(examplePayload({ type: 'integer', default: 7 })).toBe(7);
    expect(examplePayload({ type: 'string', enum: ['pending', 'paid'] })).toBe('pending');
  });

  it('makes up objects, arrays, strings by format, numbers from their minimum, booleans and nulls', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1 },
        total: { type: 'number' },
        at: { type: 'string', format: 'date-time' },
        code: { type: 'string', minLength: 8 },
        paid: { type: 'boolean' },
        note: { type: ['string', 'null'] },
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    };
    expect(examplePayload(schema)).toEqual({
      id: 1,
      total: 1.5,
      at: '2025-01-15T08:00:00Z',
      code: 'stringxx',
      paid: true,
      note: 'string',
      items: [{ sku: 'string' }],
    });
  });

  it('follows oneOf/anyOf to their first variant, merges allOf objects, and stops on recursive schemas', () => {
    expect(examplePayload({ oneOf: [{ type: 'integer' }, { type: 'string' }] })).toBe(1);
    expect(examplePayload({ allOf: [{ properties: { a: { const: 1 } } }, { properties: { b: { const: 2 } } }] })).toEqual({ a: 1, b: 2 });
    const node: JsonSchema = { type: 'object', properties: {} };
    node.properties!.child = node;
    expect(JSON.stringify(examplePayload(node))).toContain('null');
  });

  it('gives, for every event type of the catalogue, an example its own schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const type of eventCatalog(loadContract())) {
      const example = examplePayload(type.schema);
      const validate = ajv.compile(type.schema);
      expect(validate(example), `${type.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});

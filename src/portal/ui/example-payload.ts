/** The parts of a JSON Schema the example generator reads. */
export interface JsonSchema {
  type?: string | string[];
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

const formatExamples: Record<string, string> = {
  'date-time': '2025-01-15T08:00:00Z',
  date: '2025-01-15',
  uri: 'https://example.com/',
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function firstType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0];
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/**
 * An example value for a JSON Schema: its own `example`/`examples`/`const`/`default`/`enum`
 * first, else one made up from its type (objects get their properties, arrays one item).
 * Depth-bounded so a recursive schema still yields a value.
 */
export function examplePayload(schema: JsonSchema, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (variant) return examplePayload(variant, depth);
  if (schema.allOf?.length) {
    const parts = schema.allOf.map((s) => examplePayload(s, depth));
    return parts.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p)) ? Object.assign({}, ...parts) as unknown : parts[0];
  }
  if (depth > 6) return null;
  switch (firstType(schema)) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, examplePayload(s, depth + 1)]));
    case 'array': {
      const item = schema.items ? examplePayload(schema.items, depth + 1) : 'string';
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'integer':
      return schema.minimum !== undefined ? Math.ceil(schema.minimum) : 1;
    case 'number':
      return schema.minimum ?? 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return (schema.format ? formatExamples[schema.format] : undefined) ?? 'string'.padEnd(Math.min(schema.minLength ?? 0, 64), 'x');
    default:
      return null;
  }
}

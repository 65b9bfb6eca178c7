/**
 * A place in a use case's input, named as the input names it: `['items', 0, 'quantity']`, or
 * `[]` for the input as a whole. Whether it travelled in the path, the query or the body is the
 * HTTP layer's to say (src/http/field-locations.ts).
 */
export type FieldPath = readonly (string | number)[];

/** One refused field and why. */
export interface FieldIssue {
  field: FieldPath;
  message: string;
}

/** A field as a person reads it in a message: `retry.schedule[2]`, `items[0].quantity`. */
export function fieldName(field: FieldPath): string {
  return field.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

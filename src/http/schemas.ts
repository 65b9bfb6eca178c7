/** The contract's types moved to src/contract/types.ts; this path stays for tools/schemathesis, which still imports it. */
export type * from '../contract/types';

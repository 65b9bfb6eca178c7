/** The scopes an API key can carry; `admin` satisfies every other scope. */
export const scopes = ['webhooks:read', 'webhooks:write', 'resources:read', 'orders:write', 'admin'] as const;

export type Scope = (typeof scopes)[number];

/** True when `scope` is one the service knows. */
export function isScope(scope: string): scope is Scope {
  return (scopes as readonly string[]).includes(scope);
}

/** The required scopes the key lacks (empty when it may proceed). */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  if (granted.includes('admin')) return [];
  return required.filter((s) => !granted.includes(s));
}

/**
 * The sentence to show for a failed API call: the problem+json `detail` (or `title`, with the
 * first field error when there is one), else the HTTP status.
 */
export function problemText(error: unknown, status: number): string {
  if (typeof error === 'object' && error !== null) {
    const p = error as { detail?: unknown; title?: unknown; errors?: { path?: unknown; message?: unknown }[] };
    const field = Array.isArray(p.errors) && p.errors[0] ? ` (${String(p.errors[0].path)}: ${String(p.errors[0].message)})` : '';
    if (typeof p.detail === 'string' && p.detail) return `${p.detail}${field}`;
    if (typeof p.title === 'string' && p.title) return `${p.title}${field}`;
  }
  return status ? `The server answered ${status}.` : 'The server could not be reached.';
}

/** Custom headers typed one `Name: value` per line; blank lines are skipped. A line without a colon is an error naming it. */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `Header line ${i + 1} needs the form "Name: value".` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

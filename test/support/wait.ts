/** Polls `check` until true, failing after `timeoutMs` (bounded, as every test loop must be). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/**
 * Finds a Chromium for the browser tests (run by `npm test`'s pretest and so by CI): CHROMIUM_PATH,
 * then the usual commands; as root with apt-get, installs Debian's `chromium`; otherwise exits
 * non-zero naming the fix. Playwright's own browser download is never used (no network for it).
 */
import { findChromium, installChromium } from './lib/chromium';

const log = (line: string) => console.log(line);
let found = findChromium(process.env);
if (!found) {
  const installed = installChromium(log);
  found = installed ? findChromium(process.env) : undefined;
}
if (!found) {
  console.error(
    'chromium: not found. The portal browser tests need it: install Chromium (Debian/Ubuntu: `apt-get install chromium`) ' +
      'or set CHROMIUM_PATH to a Chromium/Chrome executable.',
  );
  process.exit(1);
}
log(`chromium: ${found}`);

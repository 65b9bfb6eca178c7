import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateApiKey } from './api-keys';

/**
 * The admin key `npm start` uses when ADMIN_API_KEY is not set: generated once and kept
 * (owner-readable only) in the data directory, so the demo is usable at once and the key
 * stays the same across restarts. Production sets ADMIN_API_KEY instead.
 */
export function devAdminKey(file: string): { key: string; created: boolean } {
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), created: false };
  mkdirSync(dirname(file), { recursive: true });
  const key = generateApiKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { key, created: true };
}

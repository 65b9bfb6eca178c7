/**
 * `npm run apikey -- --scopes webhooks:read,webhooks:write [--owner acme] [--name "CI key"]`
 * creates an API key, stores only its hash, and prints the key once;
 * `npm run apikey -- --revoke <key id>` revokes one, and with it every portal session it opened.
 */
import { parseArgs } from 'node:util';
import { ApiKeyRepository } from '../auth/api-keys';
import { isScope, scopes as allScopes, type Scope } from '../auth/scopes';
import { loadConfig } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';

const usage = `usage: npm run apikey -- --scopes <${allScopes.join('|')}>[,...] [--owner <owner id>] [--name <label>]\n       npm run apikey -- --revoke <key id>`;
const { values } = parseArgs({
  options: {
    scopes: { type: 'string' },
    owner: { type: 'string', default: 'default' },
    name: { type: 'string', default: 'created with npm run apikey' },
    revoke: { type: 'string' },
  },
});
if (values.revoke !== undefined) await revoke(values.revoke);
const requested = (values.scopes ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const unknown = requested.filter((s) => !isScope(s));
if (!requested.length || unknown.length) {
  console.error(unknown.length ? `unknown scope(s): ${unknown.join(', ')}\n${usage}` : usage);
  process.exit(2);
}
if (!/^[A-Za-z0-9_.-]{1,64}$/.test(values.owner)) {
  console.error(`--owner must be 1-64 letters, digits, '.', '_' or '-'\n${usage}`);
  process.exit(2);
}

const config = loadConfig();
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-apikey');
try {
  await prepareDatabase(mongo.db);
  const { key, principal } = await new ApiKeyRepository(mongo.db).create({
    ownerId: values.owner,
    name: values.name,
    scopes: requested as Scope[],
  });
  console.log(`API key ${principal.keyId} for owner "${principal.ownerId}" with scopes ${principal.scopes.join(', ')}:`);
  console.log(key);
  console.log('Store it now: only its hash is kept.');
} finally {
  await mongo.close();
}

/** Revokes one key and exits: 0 when it was active, 1 when no active key has that id. */
async function revoke(keyId: string): Promise<never> {
  const config = loadConfig();
  const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-apikey');
  try {
    const revoked = await new ApiKeyRepository(mongo.db).revoke(keyId);
    console.log(revoked ? `API key ${keyId} revoked; its portal sessions stop within 5 s on every API process.` : `No active API key ${keyId}: nothing changed.`);
    process.exitCode = revoked ? 0 : 1;
  } finally {
    await mongo.close();
  }
  process.exit();
}

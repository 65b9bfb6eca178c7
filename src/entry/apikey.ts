/**
 * `npm run apikey -- --scopes webhooks:read,webhooks:write [--owner acme] [--name "CI key"]`
 * creates an API key, stores only its hash, and prints the key once.
 */
import { parseArgs } from 'node:util';
import { ApiKeyRepository } from '../auth/api-keys';
import { isScope, scopes as allScopes, type Scope } from '../auth/scopes';
import { loadConfig } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';

const usage = `usage: npm run apikey -- --scopes <${allScopes.join('|')}>[,...] [--owner <owner id>] [--name <label>]`;
const { values } = parseArgs({
  options: {
    scopes: { type: 'string' },
    owner: { type: 'string', default: 'default' },
    name: { type: 'string', default: 'created with npm run apikey' },
  },
});
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

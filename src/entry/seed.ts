/** Entry point: loads the demo data into an empty database (`npm run seed`). */
import { loadConfig } from '../config/config';
import { prepareDatabase } from '../db/indexes';
import { createMongo } from '../db/mongo';
import { describeSeed, seedDemoData } from '../seed/seed';

const config = loadConfig();
const mongo = createMongo(config.mongo.connectUri, config.mongo.dbName, 'webhook-service-seed');
try {
  // Connect first, so an unreachable database is reported as such.
  await mongo.client.connect();
  await prepareDatabase(mongo.db);
  const seeded = await seedDemoData(mongo.db);
  process.stdout.write(`${describeSeed(seeded)} (database ${config.mongo.dbName})\n`);
} catch (err) {
  process.stderr.write(`Seeding database ${config.mongo.dbName} failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await mongo.close();
}

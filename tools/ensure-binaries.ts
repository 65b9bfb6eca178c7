/**
 * Obtains the embedded servers' binaries ahead of time (run by `npm test`'s pretest and CI),
 * so a first-time Go build shows its progress here rather than inside a test's setup.
 */
import { loadConfig } from '../src/config/config';
import { ferretDb, findMongod, resolveBinary, temporalCli } from './lib/binaries';

const config = loadConfig();
const log = (line: string) => console.log(line);
if (!config.temporal.address) {
  const t = await resolveBinary(temporalCli, { cacheDir: config.binaryCacheDir, explicitPath: config.temporal.cliPath, log });
  log(`temporal: ${t.path} (${t.source})`);
}
if (!config.mongo.uri) {
  const mongod = findMongod(config.mongo.mongodPath);
  if (mongod) log(`mongod: ${mongod}`);
  else {
    const f = await resolveBinary(ferretDb, { cacheDir: config.binaryCacheDir, explicitPath: config.mongo.ferretdbPath, log });
    log(`ferretdb: ${f.path} (${f.source})`);
  }
}

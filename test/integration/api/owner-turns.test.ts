import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/seed/seed';
import { createApiMetrics } from '../../../src/telemetry/metrics';
import { startTestApi, type TestApi } from '../../support/api';
import { waitFor } from '../../support/wait';

// The real app over the real database with API_OWNER_CONCURRENCY=1; a request is kept running by
// holding the users repository's read, so how many reached it says how many run at once.
describe('turns per owner (API_OWNER_CONCURRENCY)', () => {
  let api: TestApi;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestApi({ API_OWNER_CONCURRENCY: '1' }, { metrics: createApiMetrics() });
    await seedDemoData(api.mongo.db);
    for (const owner of ['owner-a', 'owner-b', 'owner-c']) keys[owner] = (await api.clientWith(['resources:read'], owner)).key;
  });
  afterAll(async () => {
    await api.close();
  });

  const getUser = (owner: string) => fetch(`${api.baseUrl}/api/users/1`, { headers: { authorization: `Bearer ${keys[owner]}` } });
  const waitingTurn = async () => (await api.deps.metrics!.requestsWaitingTurn.get()).values[0]?.value ?? 0;

  /** Holds every users read until the returned `open()`; `held()` counts those that reached it. */
  function holdUsers() {
    const users = api.deps.resources.users;
    const original = users.findById.bind(users);
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    let held = 0;
    users.findById = async (...args: Parameters<typeof original>) => {
      held++;
      await opened;
      return original(...args);
    };
    return { held: () => held, open, restore: () => (users.findById = original) };
  }

  it('runs one request of an owner at a time while another owner sends, the rest in turn, and never holds the other owner', async () => {
    expect((await getUser('owner-b')).status).toBe(200);
    const users = holdUsers();
    try {
      const flood = Array.from({ length: 4 }, () => getUser('owner-a'));
      await waitFor(async () => users.held() === 1 && (await waitingTurn()) === 3, 10_000, 20);
      // The other owner's request runs at once beside the flood's one.
      const quiet = getUser('owner-b');
      await waitFor(() => users.held() === 2, 10_000, 20);
      expect(await waitingTurn()).toBe(3);
      users.open();
      const answers = await Promise.all([...flood, quiet]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(users.held()).toBe(5);
      expect(await waitingTurn()).toBe(0);
    } finally {
      users.restore();
    }
  });

  it('holds nothing of an owner sending alone', async () => {
    // Past the 2 s window in which another owner counts as sending.
    await new Promise((r) => setTimeout(r, 2100));
    const users = holdUsers();
    try {
      const alone = Array.from({ length: 4 }, () => getUser('owner-c'));
      await waitFor(() => users.held() === 4, 10_000, 20);
      expect(await waitingTurn()).toBe(0);
      users.open();
      expect((await Promise.all(alone)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    } finally {
      users.restore();
    }
  });
});

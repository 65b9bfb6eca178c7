import { createClient } from '../../src/client';

/** A typed client whose injected fetch answers every request with `body`, recording what was sent; no server. */
export function cannedClient(body: unknown, status = 200, contentType = 'application/json') {
  const sent: Request[] = [];
  const client = createClient({
    baseUrl: 'http://service.test',
    apiKey: 'whk_test',
    fetch: (input: Request) => {
      sent.push(input);
      return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } }));
    },
  });
  return { client, sent };
}

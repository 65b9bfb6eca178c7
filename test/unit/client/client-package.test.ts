import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../../../clients/typescript/src';
import { loadContract } from '../../../src/contract/openapi';
import { serviceVersion } from '../../../src/version';

const clientPackage = JSON.parse(readFileSync(new URL('../../../clients/typescript/package.json', import.meta.url), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
const rootPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const contractVersion = (loadContract() as { info: { version: string } }).info.version;

describe('client package (clients/typescript)', () => {
  it("is versioned as the contract: its package.json version and CONTRACT_VERSION are openapi.yaml's info.version", () => {
    expect(clientPackage.version, 'clients/typescript/package.json version').toBe(contractVersion);
    // CONTRACT_VERSION is src/version.ts's serviceVersion, which the User-Agent carries too.
    expect(serviceVersion, 'src/version.ts serviceVersion').toBe(contractVersion);
    expect(CONTRACT_VERSION).toBe(contractVersion);
  });

  it('depends at run time on openapi-fetch alone, in the range the service itself uses', () => {
    expect(clientPackage.dependencies).toEqual({ 'openapi-fetch': rootPackage.dependencies['openapi-fetch'] });
  });
});

import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { searchAttributeTypes } from '../../../../workflows/search-attributes';

/**
 * Registers the workflows' custom search attributes on a time-skipping test server. The Java
 * test server rejects undefined ones ("search attribute WebhookDeliveryState is not defined":
 * the workflow task fails and retries forever, a child start fails). It implements
 * OperatorService.AddSearchAttributes (not ListSearchAttributes); adding is idempotent.
 */
export async function registerSearchAttributes(env: TestWorkflowEnvironment): Promise<void> {
  const searchAttributes = Object.fromEntries(
    Object.entries(searchAttributeTypes).map(([name, type]) => {
      const encoded = encodeSearchAttributeIndexedValueType(type === 'KeywordList' ? 'KEYWORD_LIST' : (type.toUpperCase() as Uppercase<typeof type>));
      if (encoded === undefined) throw new Error(`no indexed value type for ${name}: ${type}`);
      return [name, encoded];
    }),
  );
  await env.connection.operatorService.addSearchAttributes({ namespace: env.namespace ?? 'default', searchAttributes });
}

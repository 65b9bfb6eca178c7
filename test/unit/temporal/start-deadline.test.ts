import { describe, expect, it } from 'vitest';
import { startDeadline } from '../../../src/temporal/start-deadline';

type Interceptor = ReturnType<typeof startDeadline>;
type Options = Parameters<Interceptor>[0];

/** Runs the interceptor on a call to `path`, returning the options the next call got. */
function intercept(path: string, deadline?: number): Options {
  let passed: Options | undefined;
  const options = { method_definition: { path }, ...(deadline !== undefined ? { deadline } : {}) } as unknown as Options;
  startDeadline(1500)(options, (next) => {
    passed = next;
    return {} as ReturnType<Parameters<Interceptor>[1]>;
  });
  return passed!;
}

describe('startDeadline', () => {
  it('gives a workflow start without a deadline one ms from now', () => {
    const before = Date.now();
    const passed = intercept('/temporal.api.workflowservice.v1.WorkflowService/StartWorkflowExecution');
    expect(passed.deadline).toBeGreaterThanOrEqual(before + 1500);
    expect(passed.deadline).toBeLessThanOrEqual(Date.now() + 1500);
  });

  it('keeps a deadline the caller set, and leaves other calls alone', () => {
    expect(intercept('/temporal.api.workflowservice.v1.WorkflowService/StartWorkflowExecution', 42).deadline).toBe(42);
    expect(intercept('/temporal.api.workflowservice.v1.WorkflowService/DescribeWorkflowExecution').deadline).toBeUndefined();
    expect(intercept('/grpc.health.v1.Health/Check', 7).deadline).toBe(7);
  });
});

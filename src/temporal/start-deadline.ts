import type { ConnectionOptions } from '@temporalio/client';

type Interceptor = NonNullable<ConnectionOptions['interceptors']>[number];

const startMethods = new Set(['/temporal.api.workflowservice.v1.WorkflowService/StartWorkflowExecution']);

/**
 * A gRPC interceptor that gives every workflow start without a deadline one `ms` from its call:
 * a caller (a request, or the relay) never waits out the client's retries while Temporal is
 * down or stalled; it fails with DEADLINE_EXCEEDED and the relay starts it later (a start is
 * idempotent). Put it before the retry interceptor so the deadline covers the retries too.
 */
export function startDeadline(ms: number): Interceptor {
  return (options, nextCall) => {
    const bounded = options.deadline !== undefined || !startMethods.has(options.method_definition.path) ? options : { ...options, deadline: Date.now() + ms };
    // The next call is all gRPC needs back; the declared type asks for its InterceptingCall wrapper, one more object per call.
    return nextCall(bounded) as ReturnType<Interceptor>;
  };
}

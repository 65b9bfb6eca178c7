import { type Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config/config';
import { serviceVersion } from '../version';

/** A process's tracing: the tracer our own spans use, and what the Temporal worker's span sink needs. */
export interface Tracing {
  tracer: Tracer;
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers a global tracer provider (W3C trace context, AsyncLocalStorage context) exporting
 * through `spanProcessor`; entry points pass an OTLP batch processor, tests an in-memory one.
 */
export function startTracing(serviceName: string, component: string, spanProcessor: SpanProcessor): Tracing {
  const resource = new Resource({ [ATTR_SERVICE_NAME]: serviceName, [ATTR_SERVICE_VERSION]: serviceVersion, 'service.component': component });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return { tracer: trace.getTracer('webhook-service', serviceVersion), resource, spanProcessor, shutdown: () => provider.shutdown() };
}

/** Tracing to the configured OTLP/HTTP endpoint, or none: tracing off costs nothing. */
export function tracingFromConfig(config: TracingConfig, component: string): Tracing | undefined {
  if (!config.enabled) return undefined;
  return startTracing(config.serviceName, component, new BatchSpanProcessor(new OTLPTraceExporter({ url: config.url })));
}

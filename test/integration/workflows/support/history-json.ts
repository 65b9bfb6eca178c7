import { createRequire } from 'node:module';
import * as sdk from '@temporalio/common/lib/proto-utils';

/**
 * Workflow histories as Temporal's standard proto3 JSON (the format of `temporal workflow show
 * --output json` and the Web UI's download), for recorded replay fixtures.
 *
 * Why not just the SDK's historyToJSON/historyFromJSON (@temporalio/common/lib/proto-utils)?
 * In this install they throw `TypeError: type must be a Type`: @grpc/proto-loader puts
 * protobufjs 7 at the top of node_modules, so @temporalio/common and @temporalio/proto each get
 * their own nested protobufjs 8 copy, and common's protojson rejects (instanceof) the message
 * types built by proto's copy. Worker.runReplayHistory given a JSON object fails the same way
 * (it calls historyFromJSON), so the replay tests pass it a decoded History instead.
 * The fallback below does what the SDK functions do, with the protojson of the protobufjs copy
 * that @temporalio/proto itself uses; the SDK's own functions are used whenever they work.
 */

export type History = sdk.History;

/** A protobufjs reflected message type, opaque here. */
type ReflectedType = object;
interface ProtoJson {
  toJson(type: ReflectedType, message: unknown): unknown;
  fromJson(type: ReflectedType, json: unknown, options?: { ignoreUnknownFields?: boolean }): History | null;
}
interface ProtoRoot {
  lookupType(name: string): ReflectedType;
  temporal: { api: { history: { v1: { History: { fromObject(object: unknown): unknown } } } } };
}

let fallback: { protojson: ProtoJson; historyType: ReflectedType; root: ProtoRoot } | undefined;

/** Resolves @temporalio/proto as @temporalio/common does, and protojson next to that proto copy. */
function protoFallback() {
  if (fallback) return fallback;
  const fromCommon = createRequire(createRequire(import.meta.url).resolve('@temporalio/common'));
  const fromProto = createRequire(fromCommon.resolve('@temporalio/proto'));
  const { patchProtobufRoot } = fromCommon('@temporalio/proto/lib/patch-protobuf-root') as { patchProtobufRoot: (root: unknown) => ProtoRoot };
  const root = patchProtobufRoot(fromCommon('@temporalio/proto'));
  fallback = {
    protojson: fromProto('protobufjs/ext/protojson') as ProtoJson,
    historyType: root.lookupType('temporal.api.history.v1.History'),
    root,
  };
  return fallback;
}

/** The duplicate-protobufjs failure described above, and nothing else. */
function isDuplicateProtobuf(err: unknown): boolean {
  return err instanceof TypeError && err.message === 'type must be a Type';
}

/** A history (e.g. from `handle.fetchHistory()`) as pretty-printed proto3 JSON. */
export function historyToJSON(history: History): string {
  try {
    return sdk.historyToJSON(history);
  } catch (err) {
    if (!isDuplicateProtobuf(err)) throw err;
  }
  const { protojson, historyType, root } = protoFallback();
  return JSON.stringify(protojson.toJson(historyType, root.temporal.api.history.v1.History.fromObject(history)), null, 2);
}

/** Parses a proto3 JSON history as {@link historyToJSON} writes it. */
export function historyFromJSON(json: unknown): History {
  try {
    return sdk.historyFromJSON(json);
  } catch (err) {
    if (!isDuplicateProtobuf(err)) throw err;
  }
  const { protojson, historyType } = protoFallback();
  const history = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (!history) throw new TypeError('invalid history JSON');
  return history;
}

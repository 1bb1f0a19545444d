/**
 * `domino-rules-client/grpc`: the gRPC door, for Node. It needs `@grpc/grpc-js` and
 * `@grpc/proto-loader` (optional peer dependencies: install them to use this entry
 * point) and loads the service's `.proto` files shipped in the package at run time.
 *
 * Requests and answers have the very shapes of the REST door (proto3 JSON: snake_case
 * names, enums by name, the state token as base64, zero values present, unset messages
 * absent), so the same code plays over either door, and a move one door returned can be
 * sent to the other unchanged.
 */

import { fileURLToPath } from "node:url";

import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

import { Code, DominoRulesError } from "./errors.js";
import type {
  ApplyMoveRequest,
  ApplyMoveResponse,
  CallOptions,
  DominoRules,
  GetLegalMovesRequest,
  GetLegalMovesResponse,
  GetScoreRequest,
  GetScoreResponse,
  GetViewRequest,
  GetViewResponse,
  ListRulesetsResponse,
  NewGameRequest,
  NewGameResponse,
  ReplayRequest,
  ReplayResponse,
  RequestOf,
  ResponseOf,
  Rpc,
  SuggestMoveRequest,
  SuggestMoveResponse,
} from "./types.js";

export { DominoRulesError } from "./errors.js";

/** Where the package keeps the service's `.proto` files (`domino_rules/v1/domino_rules.proto`). */
export const PROTO_DIR: string = fileURLToPath(new URL("../proto/", import.meta.url));
/** The service's full name. */
export const SERVICE = "domino_rules.v1.DominoRules";

/**
 * How the `.proto` files are loaded: field names as the proto writes them, enums by
 * name, every scalar present with its zero value, bytes and 64-bit integers as strings,
 * NaN and infinities as JSON writes them. Unset messages are dropped from answers
 * (`omitNulls`), as the REST door omits them.
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  enums: String,
  longs: String,
  bytes: String,
  defaults: true,
  oneofs: false,
  json: true,
};

let loaded: protoLoader.PackageDefinition | undefined;

/** The service's methods, from the shipped `.proto` files (loaded once). */
function definition(): grpc.ServiceDefinition {
  loaded ??= protoLoader.loadSync("domino_rules/v1/domino_rules.proto", LOADER_OPTIONS);
  const service = loaded[SERVICE];
  if (service === undefined || !("ListRulesets" in service)) throw new Error(`${SERVICE} not in ${PROTO_DIR}`);
  return service as grpc.ServiceDefinition;
}

/** A copy of an answer without the `null`s protobuf.js writes for unset messages. */
function omitNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omitNulls);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field !== null && field !== undefined) out[key] = omitNulls(field);
  }
  return out;
}

// ------------------------------------------------------------ google.rpc.Status

/** Reads the protobuf wire format: just enough for `google.rpc.Status` and `ErrorInfo`. */
function* fields(bytes: Uint8Array): Generator<[number, number | Uint8Array]> {
  let at = 0;
  const varint = (): number => {
    let result = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error("truncated varint");
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    const wire = tag % 8;
    const field = Math.floor(tag / 8);
    if (wire === 0) yield [field, varint()];
    else if (wire === 2) {
      const length = varint();
      yield [field, bytes.subarray(at, at + length)];
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = new TextDecoder();

interface ErrorInfo {
  reason: string;
  metadata: Record<string, string>;
}

/** The `ErrorInfo` inside a `grpc-status-details-bin` trailer, if any. */
function errorInfo(status: Uint8Array): ErrorInfo | undefined {
  for (const [field, any] of fields(status)) {
    if (field !== 3 || typeof any === "number") continue; // details: repeated Any
    let typeUrl = "";
    let value: Uint8Array | undefined;
    for (const [f, v] of fields(any)) {
      if (f === 1 && typeof v !== "number") typeUrl = text.decode(v);
      if (f === 2 && typeof v !== "number") value = v;
    }
    if (!typeUrl.endsWith("/google.rpc.ErrorInfo") || value === undefined) continue;
    const info: ErrorInfo = { reason: "", metadata: {} };
    for (const [f, v] of fields(value)) {
      if (typeof v === "number") continue;
      if (f === 1) info.reason = text.decode(v);
      if (f === 3) {
        let key = "";
        let entry = "";
        for (const [k, s] of fields(v)) {
          if (typeof s === "number") continue;
          if (k === 1) key = text.decode(s);
          if (k === 2) entry = text.decode(s);
        }
        info.metadata[key] = entry;
      }
    }
    return info;
  }
  return undefined;
}

function toError(rpc: Rpc, error: grpc.ServiceError, requestId: string | undefined): DominoRulesError {
  let info: ErrorInfo | undefined;
  const details = error.metadata?.get("grpc-status-details-bin")[0];
  if (details instanceof Uint8Array) {
    try {
      info = errorInfo(details);
    } catch {
      info = undefined;
    }
  }
  const answeredId = error.metadata?.get("x-request-id")[0];
  return new DominoRulesError(error.details || `${rpc}: ${error.message}`, {
    grpcCode: typeof error.code === "number" ? error.code : Code.UNKNOWN,
    reason: info?.reason,
    metadata: info?.metadata,
    door: "grpc",
    requestId: typeof answeredId === "string" ? answeredId : requestId,
    cause: error,
  });
}

// ------------------------------------------------------------ the client

export interface GrpcClientOptions {
  /** Channel credentials (default: insecure, for a service on a private network). */
  credentials?: grpc.ChannelCredentials;
  /** gRPC channel options (`grpc.keepalive_time_ms`, `grpc.service_config`, ...). */
  channelOptions?: grpc.ChannelOptions;
  /** Metadata sent with every call (authentication at a proxy, tracing). */
  metadata?: Record<string, string>;
  /** Milliseconds before a call is abandoned (default 30 000). */
  timeoutMs?: number;
}

/** A client of the gRPC door: `new DominoRulesGrpcClient("127.0.0.1:50051")`; `close()` when done. */
export class DominoRulesGrpcClient implements DominoRules {
  readonly target: string;
  private readonly client: grpc.Client;
  private readonly methods: grpc.ServiceDefinition;
  private readonly metadata: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(target = "127.0.0.1:50051", options: GrpcClientOptions = {}) {
    this.target = target;
    this.methods = definition();
    this.client = new grpc.Client(
      target,
      options.credentials ?? grpc.credentials.createInsecure(),
      options.channelOptions,
    );
    this.metadata = options.metadata ?? {};
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Call an RPC by name; every method below is one line over this. */
  call<Op extends Rpc>(rpc: Op, request: RequestOf<Op> | undefined, options: CallOptions = {}): Promise<ResponseOf<Op>> {
    const method = this.methods[rpc];
    if (method === undefined) throw new Error(`${SERVICE} has no RPC ${rpc}`);
    const metadata = new grpc.Metadata();
    for (const [key, value] of Object.entries(this.metadata)) metadata.set(key, value);
    if (options.requestId !== undefined) metadata.set("x-request-id", options.requestId);
    const deadline = new Date(Date.now() + (options.timeoutMs ?? this.timeoutMs));
    const { signal } = options;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new DominoRulesError(`${rpc}: cancelled`, { grpcCode: Code.CANCELLED, door: "grpc", cause: signal.reason }));
        return;
      }
      const cancel = (): void => call.cancel();
      const call = this.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request ?? {},
        metadata,
        { deadline },
        (error: grpc.ServiceError | null, answer?: unknown) => {
          signal?.removeEventListener("abort", cancel);
          if (error) reject(toError(rpc, error, options.requestId));
          else resolve(omitNulls(answer) as ResponseOf<Op>);
        },
      );
      signal?.addEventListener("abort", cancel, { once: true });
    });
  }

  listRulesets(options?: CallOptions): Promise<ListRulesetsResponse> {
    return this.call("ListRulesets", undefined, options);
  }

  newGame(request: NewGameRequest, options?: CallOptions): Promise<NewGameResponse> {
    return this.call("NewGame", request, options);
  }

  getLegalMoves(request: GetLegalMovesRequest, options?: CallOptions): Promise<GetLegalMovesResponse> {
    return this.call("GetLegalMoves", request, options);
  }

  applyMove(request: ApplyMoveRequest, options?: CallOptions): Promise<ApplyMoveResponse> {
    return this.call("ApplyMove", request, options);
  }

  getScore(request: GetScoreRequest, options?: CallOptions): Promise<GetScoreResponse> {
    return this.call("GetScore", request, options);
  }

  getView(request: GetViewRequest, options?: CallOptions): Promise<GetViewResponse> {
    return this.call("GetView", request, options);
  }

  suggestMove(request: SuggestMoveRequest, options?: CallOptions): Promise<SuggestMoveResponse> {
    return this.call("SuggestMove", request, options);
  }

  replay(request: ReplayRequest, options?: CallOptions): Promise<ReplayResponse> {
    return this.call("Replay", request, options);
  }

  /** Close the channel; calls made after this fail. */
  close(): void {
    this.client.close();
  }
}

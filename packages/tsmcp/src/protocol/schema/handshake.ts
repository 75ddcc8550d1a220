/**
 * Wire schemas of the 2025-era handshake methods a tsmcp server answers on a session: `initialize`,
 * `logging/setLevel`, `resources/subscribe` and `resources/unsubscribe`. Objects are loose, and
 * `_meta` is optional (a 2025-era request need not carry one).
 * Spec (2025-11-25): basic/lifecycle, server/utilities/logging, server/resources §Subscriptions;
 * schema/2025-11-25/schema.ts.
 */
import * as z from "zod";
import {
  ClientCapabilitiesSchema,
  ImplementationSchema,
  JSONObjectSchema,
  LoggingLevelSchema,
  ServerCapabilitiesSchema,
} from "./base.js";

const meta = JSONObjectSchema.optional();

/** The params of `initialize`: the revision the client asks for, what it can do, who it is. */
export const InitializeRequestParamsSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
  _meta: meta,
});
/** The {@link InitializeRequestParamsSchema} shape. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/**
 * The answer to `initialize`: the negotiated revision, what the server offers (the 2025-11-25
 * shape), who it is, and optional guidance for the model.
 */
export const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
  _meta: meta,
});
/** The {@link InitializeResultSchema} shape. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** The params of `logging/setLevel`: the least severe level the client wants sent. */
export const SetLevelRequestParamsSchema = z.looseObject({ level: LoggingLevelSchema, _meta: meta });
/** The {@link SetLevelRequestParamsSchema} shape. */
export type SetLevelRequestParams = z.infer<typeof SetLevelRequestParamsSchema>;

/** The params of `resources/subscribe` and `resources/unsubscribe`: the resource's URI. */
export const SubscribeRequestParamsSchema = z.looseObject({ uri: z.string(), _meta: meta });
/** The {@link SubscribeRequestParamsSchema} shape. */
export type SubscribeRequestParams = z.infer<typeof SubscribeRequestParamsSchema>;

/**
 * The `_meta` of a 2025-era request, when it carries one: only `progressToken` is read.
 * Spec (2025-11-25): basic/utilities/progress.
 */
export const HandshakeRequestMetaSchema = z
  .looseObject({ progressToken: z.union([z.string(), z.int()]).optional() })
  .optional();

/**
 * The `x-mcp-header` annotations a client remembers per tool from `tools/list`, so that `tools/call`
 * can mirror the annotated arguments as `Mcp-Param-{Name}` headers; tools whose annotations break
 * the rules are left out of the listing with a warning.
 * Spec: basic/transports/streamable-http §Custom Headers.
 */
import type { ListToolsResult } from "../protocol/schema/methods.js";
import { analyzeParamHeaders, type ParamHeader } from "../protocol/x-mcp-header.js";
import { paramHeadersFor } from "../transport/http/param-headers.js";
import type { ClientLogger } from "./logger.js";

/** The annotated parameters of each tool seen in the latest `tools/list`, by tool name. */
export class ParamHeaderCache {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();
  readonly #logger: ClientLogger;

  constructor(logger: ClientLogger) {
    this.#logger = logger;
  }

  /**
   * Remembers the annotations of each valid tool in `result` and returns the listing without the
   * invalid ones (the same object when none was dropped), warning the logger about each dropped one.
   */
  admit(result: ListToolsResult): ListToolsResult {
    const tools = result.tools.filter((tool) => {
      const analysis = analyzeParamHeaders(tool.inputSchema);
      if (analysis.kind === "valid") {
        this.#byTool.set(tool.name, analysis.params);
        return true;
      }
      this.#byTool.delete(tool.name);
      this.#logger.warn(`tools/list: dropped tool ${JSON.stringify(tool.name)}: ${analysis.reason}`, {
        tool: tool.name,
        reason: analysis.reason,
      });
      return false;
    });
    return tools.length === result.tools.length ? result : { ...result, tools };
  }

  /**
   * The `Mcp-Param-{Name}` headers for calling `name` with `args`; undefined when the tool has no
   * annotated parameter (or was never listed).
   *
   * @throws TypeError for an annotated argument that cannot be mirrored.
   */
  headersFor(name: string, args: Record<string, unknown> | undefined): Record<string, string> | undefined {
    const annotated = this.#byTool.get(name);
    if (annotated === undefined || annotated.length === 0) return undefined;
    return paramHeadersFor(name, annotated, args);
  }
}

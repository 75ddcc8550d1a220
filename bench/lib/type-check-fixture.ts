/**
 * Generates the source of a server of N zod tools, for measuring what type-checking a server costs
 * (stage 12, and the instantiation-count regression test): the same input schemas for tsmcp's
 * `MCPServer.tool(name, { inputSchema }, handler)` and the official SDK 2.4.0's
 * `McpServer.registerTool(name, { inputSchema }, handler)`, each handler reading its arguments.
 *
 * The schemas cycle through eight realistic shapes (strings with checks, numbers, enums, optional
 * and defaulted fields, nested objects, arrays of objects, unions); tool `i` names one property
 * and one enum value after `i`, so every tool's schema is a type of its own, as in a real server
 * (a checker that caches by type cannot reuse one tool's work for the next).
 */

/**
 * Which SDK the generated server registers its tools with; `floor` registers nothing: the same
 * schemas, and the same handler bodies as functions of the schema's output type (`z.output`), the
 * part of the check no SDK's types can remove.
 */
export type FixtureSdk = "tsmcp" | "official" | "floor";

/** What one generated file holds. */
export interface FixtureSpec {
  readonly sdk: FixtureSdk;
  /** Plain tools, numbered from `firstTool` (default 0). */
  readonly tools: number;
  readonly firstTool?: number;
  /** tsmcp only: resolver tools (each with `resolve: { x: resolver(...elicit(...)) }`), numbered after the plain ones. */
  readonly resolverTools?: number;
  /**
   * The module specifiers: tsmcp's server entry (default "tsmcp/server"), the official server
   * (default "@modelcontextprotocol/server") and zod (default "zod").
   */
  readonly specifiers?: { readonly tsmcp?: string; readonly official?: string; readonly zod?: string };
}

interface ToolShape {
  /** The zod object schema's source. */
  readonly schema: string;
  /** The handler's parameter pattern. */
  readonly params: string;
  /** A template literal body (without backticks) reading the parameters. */
  readonly text: string;
}

/** The eight schema shapes; `i` makes each tool's names (and so its types) its own. */
function shapeOf(i: number): ToolShape {
  switch (i % 8) {
    case 0:
      return {
        schema: `z.object({ query${i}: z.string().min(1).describe("What to search for"), limit: z.number().int().min(1).max(100).optional(), sort: z.enum(["relevance", "newest", "sort${i}"]).default("relevance") })`,
        params: `{ query${i}, limit, sort }`,
        text: `\${query${i}} \${limit ?? 10} \${sort}`,
      };
    case 1:
      return {
        schema: `z.object({ id${i}: z.string().uuid(), fields: z.array(z.string()).optional(), includeDeleted: z.boolean().default(false) })`,
        params: `{ id${i}, fields, includeDeleted }`,
        text: `\${id${i}} \${fields?.join(",") ?? "*"} \${includeDeleted}`,
      };
    case 2:
      return {
        schema: `z.object({ user${i}: z.object({ name: z.string(), email: z.string().email(), age: z.number().int().nonnegative().optional() }), tags: z.array(z.string()).max(10), role: z.enum(["admin", "editor", "viewer", "role${i}"]) })`,
        params: `{ user${i}, tags, role }`,
        text: `\${user${i}.name} <\${user${i}.email}> \${user${i}.age ?? "?"} \${tags.length} \${role}`,
      };
    case 3:
      return {
        schema: `z.object({ path${i}: z.string().min(1), recursive: z.boolean().optional(), depth: z.number().int().min(0).max(10).default(1), pattern: z.string().optional() })`,
        params: `{ path${i}, recursive, depth, pattern }`,
        text: `\${path${i}} \${recursive === true} \${depth} \${pattern ?? ""}`,
      };
    case 4:
      return {
        schema: `z.object({ items${i}: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive(), note: z.string().optional() })).min(1), currency: z.enum(["USD", "EUR", "GBP", "C${i}"]), coupon: z.string().optional() })`,
        params: `{ items${i}, currency, coupon }`,
        text: `\${items${i}.map((item) => \`\${item.sku}x\${item.quantity}\${item.note ?? ""}\`).join(",")} \${currency} \${coupon ?? ""}`,
      };
    case 5:
      return {
        schema: `z.object({ to${i}: z.string().email(), subject: z.string().max(200), body: z.string(), cc: z.array(z.string().email()).optional(), priority: z.enum(["low", "normal", "high", "p${i}"]).optional() })`,
        params: `{ to${i}, subject, body, cc, priority }`,
        text: `\${to${i}} \${subject} \${body.length} \${cc?.length ?? 0} \${priority ?? "normal"}`,
      };
    case 6:
      return {
        schema: `z.object({ key${i}: z.string(), value: z.union([z.string(), z.number(), z.boolean()]), ttlSeconds: z.number().int().positive().nullable().optional() })`,
        params: `{ key${i}, value, ttlSeconds }`,
        text: `\${key${i}}=\${String(value)} \${ttlSeconds ?? "forever"}`,
      };
    default:
      return {
        schema: `z.object({ range${i}: z.object({ start: z.string().datetime(), end: z.string().datetime() }), granularity: z.enum(["hour", "day", "week", "g${i}"]), metrics: z.array(z.enum(["views", "clicks", "conversions"])).min(1), filters: z.record(z.string(), z.string()).optional() })`,
        params: `{ range${i}, granularity, metrics, filters }`,
        text: `\${range${i}.start}..\${range${i}.end} \${granularity} \${metrics.join(",")} \${Object.keys(filters ?? {}).length}`,
      };
  }
}

/** The source of one server file as `spec` describes it. */
export function generateServerSource(spec: FixtureSpec): string {
  const tsmcp = spec.specifiers?.tsmcp ?? "tsmcp/server";
  const official = spec.specifiers?.official ?? "@modelcontextprotocol/server";
  const zod = spec.specifiers?.zod ?? "zod";
  const first = spec.firstTool ?? 0;
  const resolverTools = spec.resolverTools ?? 0;
  const lines: string[] = [`import * as z from "${zod}";`];
  if (spec.sdk === "tsmcp") {
    const names = resolverTools > 0 ? "elicit, MCPServer, resolver" : "MCPServer";
    lines.push(`import { ${names} } from "${tsmcp}";`, "", `export const server = new MCPServer("bench");`);
  } else if (spec.sdk === "official") {
    lines.push(
      `import { McpServer } from "${official}";`,
      "",
      `export const server = new McpServer({ name: "bench", version: "1.0.0" });`,
    );
  }
  for (let i = first; i < first + spec.tools; i++) {
    const { schema, params, text } = shapeOf(i);
    if (spec.sdk === "tsmcp") {
      lines.push(`server.tool("tool_${i}", { inputSchema: ${schema} }, async (${params}) => \`${text}\`);`);
    } else if (spec.sdk === "floor") {
      lines.push(
        `const schema_${i} = ${schema};`,
        `export const tool_${i} = async (${params}: z.output<typeof schema_${i}>) => \`${text}\`;`,
      );
    } else {
      lines.push(
        `server.registerTool("tool_${i}", { inputSchema: ${schema} }, async (${params}) => ({ content: [{ type: "text", text: \`${text}\` }] }));`,
      );
    }
  }
  if (spec.sdk === "tsmcp") {
    for (let i = first + spec.tools; i < first + spec.tools + resolverTools; i++) {
      const { schema, params, text } = shapeOf(i);
      lines.push(
        `const answer${i} = resolver("answer_${i}", () => elicit("Which region?", z.object({ region: z.string().min(1), zone${i}: z.enum(["a", "b"]).optional() })));`,
        `server.tool("tool_${i}", { inputSchema: ${schema}, resolve: { answer: answer${i} } }, async (${params}, ctx) => \`${text} \${ctx.resolved.answer.region} \${ctx.resolved.answer.zone${i} ?? ""}\`);`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The `tsconfig.json` of a generated fixture: a strict NodeNext project of the one file. */
export function fixtureTsconfig(file: string): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        types: ["node"],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      files: [file],
    },
    null,
    2,
  )}\n`;
}

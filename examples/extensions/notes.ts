/**
 * A made-up extension, `com.example/notes`, declared once and served by an `MCPServer`: the
 * extensions guide (docs/extensions/index.md) quotes this file; notes.test.ts runs it in both eras.
 */
import { MCPServer } from "tsmcp/server";
import { defineExtension } from "tsmcp/types";
import * as z from "zod";

const Note = z.object({ id: z.string(), text: z.string() });

export const notes = defineExtension({
  id: "com.example/notes",
  serverSettings: z.object({ maxLength: z.number().int().positive() }),
  clientSettings: z.object({ watch: z.boolean().optional() }),
  methods: {
    "notes/list": {
      params: z.object({ prefix: z.string().optional() }),
      result: z.object({ notes: z.array(Note) }),
      cacheable: true,
    },
    "notes/add": {
      params: z.object({ text: z.string().min(1) }),
      result: z.object({ note: Note }),
      requiresClientDeclaration: true,
    },
  },
  notifications: {
    "notifications/notes/added": z.object({ id: z.string() }),
  },
});

export function createNotesServer(): MCPServer {
  const stored: { id: string; text: string }[] = [];
  const mcp = new MCPServer("notes", {
    version: "1.0.0",
    cache: { methods: { "notes/list": { ttlMs: 10_000, cacheScope: "private" } } },
  });
  mcp.extension(notes, {
    settings: { maxLength: 280 },
    handlers: {
      "notes/list": (_ctx, { prefix }) => ({
        notes: stored.filter((note) => note.text.startsWith(prefix ?? "")),
      }),
      "notes/add": (ctx, { text }) => {
        const note = { id: String(stored.length + 1), text: text.slice(0, 280) };
        stored.push(note);
        mcp.notifyExtension(notes, "notifications/notes/added", { id: note.id }, ctx);
        return { note };
      },
    },
  });
  // Every extension the client declared on this request (2025 era: at initialize), unknown ones too.
  mcp.tool("client_extensions", {}, (_args, ctx) =>
    Object.keys(ctx.clientCapabilities.extensions ?? {}).join(", "),
  );
  return mcp;
}

/**
 * A client of the `com.example/notes` extension (notes.ts): declares it, calls its methods, listens
 * to its notification, and reads what else the server advertised. Quoted by the extensions guide;
 * notes.test.ts runs it in both eras.
 */
import { Client, type ConnectTarget, ExtensionNotSupportedError } from "tsmcp/client";
import { McpError } from "tsmcp/types";
import { notes } from "./notes.js";

export async function addAndList(target: ConnectTarget, protocolVersion?: "legacy") {
  const client = await Client.connect(target, {
    extensions: [{ extension: notes, settings: { watch: true } }],
    ...(protocolVersion === undefined ? {} : { protocolVersion }),
  });
  try {
    const added: string[] = [];
    const stop = client.onExtensionNotification(notes, "notifications/notes/added", ({ id }) => {
      added.push(id);
    });
    const { note } = await client.requestExtension(notes, "notes/add", { text: "buy milk" });
    const { notes: listed } = await client.requestExtension(notes, "notes/list", {});
    stop();
    return { note, listed, added, advertised: client.serverExtensions };
  } finally {
    await client.close();
  }
}

export async function listIfSupported(client: Client) {
  try {
    return (await client.requestExtension(notes, "notes/list", {})).notes;
  } catch (error) {
    if (error instanceof ExtensionNotSupportedError) return undefined; // nothing was sent
    if (error instanceof McpError && error.code === -32601) return undefined; // advertised, not served
    throw error;
  }
}

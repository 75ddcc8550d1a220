// Preloaded with `node --import`: registers a resolve hook that reports every bare specifier
// resolved in the process, so a test can see which packages a program loaded.
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
const loaded = new Set();
port1.on("message", (specifier) => loaded.add(specifier));
port1.unref();
register("./hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });
globalThis.loadedSpecifiers = loaded;

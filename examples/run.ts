/**
 * `npm run example -- <name> [args...]`: runs `examples/<name>.ts` by calling its exported `main`.
 * With no name, lists the examples.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const available = readdirSync(here)
  .filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !["run.ts", "start.ts"].includes(file),
  )
  .map((file) => file.slice(0, -3))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !available.includes(name)) {
  if (name !== undefined) console.error(`No example named "${name}".`);
  console.error(`Usage: npm run example -- <name> [args...]\nExamples: ${available.join(", ")}`);
  process.exit(name === undefined ? 0 : 2);
}
const module = (await import(pathToFileURL(`${here}${name}.ts`).href)) as {
  main?: (args: string[]) => Promise<void>;
};
if (typeof module.main !== "function") {
  console.error(`examples/${name}.ts exports no main()`);
  process.exit(2);
}
await module.main(args);

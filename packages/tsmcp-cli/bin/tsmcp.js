#!/usr/bin/env node
// The `tsmcp` command: runs the built dist/index.js (`npm install` at the repository root builds
// it through the root `prepare` script; the packed package ships it).
const { runCli } = await import("../dist/index.js");
process.exitCode = await runCli(process.argv.slice(2));

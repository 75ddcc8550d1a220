/**
 * tsmcp/cli: the `tsmcp` command, callable from code. `runCli(argv)` runs one command line
 * (`discover`, `tools`, `prompts`, `resources`, `templates`, `call`, `prompt`, `read`, `login`,
 * `logout`) and resolves its exit code; the `tsmcp` bin is this with `process.argv`.
 */
export { CLI_SAMPLING_MODEL, UnansweredInputError } from "./answers.js";
export { CONFIG_DIR_ENV, SignInRequiredError } from "./auth.js";
export { runCli } from "./program.js";
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./target.js";

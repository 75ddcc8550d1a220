/**
 * The `tsmcp` command against servers of the 2025-11-25 handshake era, built on the official 1.x
 * SDK: questions arrive over the back-channel (`elicitation/create`), where requests have no key.
 * A scripted answer is found by the server's request id when one is given under it, else by the
 * form's fields; without one the command exits 2 and says so.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { serveLegacyProvisioning } from "../../examples/legacy-provisioning.js";
import { tsmcp } from "./run-cli.js";

const V1_STDIO = `${JSON.stringify(process.execPath)} --import tsx test/interop/official-v1-server.ts`;

async function legacyProvisioning(): Promise<string> {
  const handle = await serveLegacyProvisioning(0);
  onTestFinished(() => handle.close());
  return handle.url.href;
}

describe.each(["legacy", "auto"])("tsmcp --protocol %s against a 1.x SDK server over HTTP", (protocol) => {
  it("answers the back-channel question from the --answer whose fields fit the form", async () => {
    const run = await tsmcp([
      "--protocol",
      protocol,
      "-v",
      "call",
      await legacyProvisioning(),
      "provision",
      "name=orders",
      "--answer",
      'region={"region":"us-east-1"}',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "Provisioned orders in us-east-1\n" });
    expect(run.stderr).toContain("(2025-11-25, legacy era)");
    expect(run.stderr).toMatch(/round 1 · 0: Which region should the database live in\? -> accept/);
  });
});

describe("tsmcp on a 2025-era session", () => {
  it("prefers the answer given under the server's request id over one that merely fits", async () => {
    const run = await tsmcp([
      "call",
      await legacyProvisioning(),
      "provision",
      "name=orders",
      "--answer",
      'region={"region":"us-east-1"}',
      "--answer",
      '0={"region":"ap-south-1"}',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "Provisioned orders in ap-south-1\n" });
  });

  it("answers the 1.x SDK server over stdio, and declines by field", async () => {
    const [answered, declined] = await Promise.all([
      tsmcp(["call", V1_STDIO, "pick_region", "name=orders", "--answer", 'where={"region":"eu-west-1"}']),
      tsmcp(["call", V1_STDIO, "pick_region", "name=orders", "--decline", "region"]),
    ]);
    expect(answered).toMatchObject({ code: 0, stdout: "orders lives in eu-west-1\n" });
    expect(declined).toMatchObject({ code: 0, stdout: "orders: decline\n" });
  });

  it("exits 2 saying how a question without a key is answered", async () => {
    const run = await tsmcp(["call", V1_STDIO, "pick_region", "name=orders"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('no answer for input request "0"');
    expect(run.stderr).toContain("a 2025-era request has no key: pass --answer 0=<json>");
    expect(run.stderr).toContain('"requestedSchema"');
  });
});

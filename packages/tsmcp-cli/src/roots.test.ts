import { describe, expect, it } from "vitest";
import { rootUri } from "./roots.js";
import { UsageError } from "./target.js";

describe("rootUri", () => {
  it("turns a path into the file URI of that directory, relative to the working directory", () => {
    expect(rootUri("/srv/data")).toBe("file:///srv/data");
    expect(rootUri("project", "/home/me")).toBe("file:///home/me/project");
    expect(rootUri("../shared dir", "/home/me/project")).toBe("file:///home/me/shared%20dir");
  });

  it("keeps a file URI as it is", () => {
    expect(rootUri("file:///srv/data")).toBe("file:///srv/data");
  });

  it("refuses a URI of another scheme as a usage mistake", () => {
    expect(() => rootUri("https://example.com/repo")).toThrow(UsageError);
    expect(() => rootUri("s3://bucket")).toThrow(/--root must be a directory/);
  });
});

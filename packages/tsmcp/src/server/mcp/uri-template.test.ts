import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { UriTemplate } from "./uri-template.js";

describe("UriTemplate matching", () => {
  it("extracts a simple variable and percent-decodes it", () => {
    const template = new UriTemplate("notes://{id}");
    expect(template.match("notes://42")).toEqual({ id: "42" });
    expect(template.match("notes://hello%20world")).toEqual({ id: "hello world" });
    expect(template.match("notes://a%2Fb")).toEqual({ id: "a/b" });
  });

  it("never lets a simple variable swallow a reserved character, nor match empty", () => {
    const template = new UriTemplate("notes://{id}");
    expect(template.match("notes://a/b")).toBeUndefined();
    expect(template.match("notes://42?x=1")).toBeUndefined();
    expect(template.match("notes://")).toBeUndefined();
    expect(template.match("other://42")).toBeUndefined();
  });

  it("refuses malformed percent-encodings without throwing", () => {
    const template = new UriTemplate("notes://{id}");
    expect(template.match("notes://%ZZ")).toBeUndefined();
    expect(template.match("notes://%FF")).toBeUndefined();
  });

  it("matches several variables separated by literals", () => {
    const template = new UriTemplate("repo://{owner}/{repo}/issues");
    expect(template.match("repo://o/r/issues")).toEqual({ owner: "o", repo: "r" });
    expect(template.match("repo://o/r")).toBeUndefined();
    expect(template.match("repo://o/r/x/issues")).toBeUndefined();
  });

  it("stops a reserved variable at the query when query variables follow", () => {
    const template = new UriTemplate("file:///{+path}{?rev}");
    expect(template.match("file:///a/b?rev=2")).toEqual({ path: "a/b", rev: "2" });
    expect(new UriTemplate("file:///{+path}").match("file:///a/b?rev=2")).toEqual({ path: "a/b?rev=2" });
  });

  it("lets a reserved variable span slashes", () => {
    const template = new UriTemplate("file:///{+path}");
    expect(template.match("file:///docs/readme.txt")).toEqual({ path: "docs/readme.txt" });
    expect(template.match("file:///a%20b/c")).toEqual({ path: "a b/c" });
    expect(template.match("file:///")).toBeUndefined();
  });

  it("treats path-segment, label and fragment variables as optional", () => {
    const segment = new UriTemplate("api://x{/version}/users");
    expect(segment.match("api://x/v1/users")).toEqual({ version: "v1" });
    expect(segment.match("api://x/users")).toEqual({});
    expect(new UriTemplate("doc://a{.format}").match("doc://a.json")).toEqual({ format: "json" });
    expect(new UriTemplate("doc://a{#section}").match("doc://a#intro")).toEqual({ section: "intro" });
    expect(new UriTemplate("doc://a{#section}").match("doc://a")).toEqual({});
  });

  it("reads query variables in any order, and refuses parameters the template does not name", () => {
    const template = new UriTemplate("search://q{?text,limit}");
    expect(template.match("search://q?text=cats&limit=5")).toEqual({ text: "cats", limit: "5" });
    expect(template.match("search://q?limit=5&text=cats")).toEqual({ text: "cats", limit: "5" });
    expect(template.match("search://q?limit=5")).toEqual({ limit: "5" });
    expect(template.match("search://q")).toEqual({});
    expect(template.match("search://q?text=a&other=1")).toBeUndefined();
    expect(template.match("search://q?text=a&text=b")).toBeUndefined();
    expect(template.match("search://q?text")).toBeUndefined();
  });

  it("continues a literal query with {&...}", () => {
    const template = new UriTemplate("search://q?fixed=1{&page}");
    expect(template.match("search://q?fixed=1")).toEqual({});
    expect(template.match("search://q?fixed=1&page=2")).toEqual({ page: "2" });
  });

  it.each([
    ["x://{a}-{b}-{c}", "x://", "-", 1500, "!"],
    ["file:///{+a}/{+b}/{+c}", "file:///", "/", 1500, " "],
    ["x://{a}{b}", "x://", "a", 20_000, "!"],
    ["x://{a}{.b}{?q}", "x://", ".", 20_000, "?q=#"],
  ])(
    "refuses a long URI that almost matches %s in linear time, not by backtracking",
    (text, head, unit, times, tail) => {
      const template = new UriTemplate(text);
      // Characters read while matching: twice the URI, twice the reads (a backtracking match: 4 or 8 times).
      const reads = (repeats: number): number => {
        const charCodeAt = vi.spyOn(String.prototype, "charCodeAt");
        try {
          expect(template.match(`${head}${unit.repeat(repeats)}${tail}`)).toBeUndefined();
          return charCodeAt.mock.calls.length;
        } finally {
          charCodeAt.mockRestore();
        }
      };
      const once = reads(times);
      expect(once).toBeGreaterThanOrEqual(times);
      expect(reads(2 * times)).toBeLessThanOrEqual(2.2 * once);
    },
  );

  it("gives each variable the longest text that leaves a match for the rest", () => {
    expect(new UriTemplate("file:///{+dir}/{+file}").match("file:///a/b/c.txt")).toEqual({
      dir: "a/b",
      file: "c.txt",
    });
    expect(new UriTemplate("x://{a}-{b}").match("x://p-q-r")).toEqual({ a: "p-q", b: "r" });
    expect(new UriTemplate("x://{a}{b}").match("x://abc")).toEqual({ a: "ab", b: "c" });
    expect(new UriTemplate("x://{a}{/b}").match("x://p/")).toEqual({ a: "p", b: "" });
    expect(new UriTemplate("x://{a}%41{b}").match("x://p%41%41q")).toEqual({ a: "pA", b: "q" });
  });

  it("knows a URI without expressions is static", () => {
    expect(new UriTemplate("notes://welcome").isStatic).toBe(true);
    expect(new UriTemplate("notes://welcome").match("notes://welcome")).toEqual({});
    expect(new UriTemplate("notes://{id}").isStatic).toBe(false);
    expect(new UriTemplate("search://q{?a,b}").variableNames).toEqual(["a", "b"]);
  });
});

describe("UriTemplate construction", () => {
  it.each([
    ["notes://{id", "unclosed"],
    ["notes://id}", "unmatched"],
    ["x://{a*}", "modifiers"],
    ["x://{a:3}", "modifiers"],
    ["x://{;a}", "not supported"],
    ["x://{a}{a}", "twice"],
    ["x://{?a}/b", "must come last"],
    ["x://{+a,b}", "ambiguous"],
    ["x://{a-b}", "not a variable name"],
    ["x://{}", "not a variable name"],
  ])("refuses %s with a TypeError saying it is %s", (template, why) => {
    expect(() => new UriTemplate(template)).toThrow(TypeError);
    expect(() => new UriTemplate(template)).toThrow(why);
  });
});

/** Percent-encodes all but the unreserved characters, as a client expanding `{var}` does. */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Percent-encodes all but the unreserved and reserved characters, as a client expanding `{+var}` does. */
function encodeReserved(value: string): string {
  return [...value]
    .map((c) => (/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]$/.test(c) ? c : encodeURIComponent(c)))
    .join("");
}

/** The query of `{?a,b}` for the defined values, as a client expands it. */
function query(values: Record<string, string | undefined>): string {
  const pairs = Object.entries(values).filter(([, v]) => v !== undefined);
  return pairs
    .map(([name, v], i) => `${i === 0 ? "?" : "&"}${name}=${encodeUnreserved(v as string)}`)
    .join("");
}

describe("UriTemplate matching of expanded URIs", () => {
  it("matches every expansion back to the variables it was expanded from (property)", () => {
    const template = new UriTemplate("res://{owner}/{+path}{/rev}{?view,lang}");
    const word = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        word,
        word,
        fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        fc.option(fc.string({ maxLength: 8 }), { nil: undefined }),
        (owner, path, rev, view, lang) => {
          // a reserved value keeps "?" and "#" unencoded, so before a query it cannot hold them
          const variables = { owner, path: path.replace(/[%?#]/g, "p"), rev, view, lang };
          const defined = Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined));
          const uri =
            `res://${encodeUnreserved(owner)}/${encodeReserved(variables.path)}` +
            (rev === undefined ? "" : `/${encodeUnreserved(rev)}`) +
            query({ view, lang });
          const matched = template.match(uri);
          // a reserved value may itself contain "/" and so absorb an empty {/rev}; compare what is unambiguous
          expect(matched?.owner).toBe(owner);
          expect(matched?.view).toBe(defined.view);
          expect(matched?.lang).toBe(defined.lang);
        },
      ),
    );
  });

  it("round-trips simple and query variables exactly (property)", () => {
    const template = new UriTemplate("notes://{owner}/{id}{?q}");
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.option(fc.string(), { nil: undefined }),
        (owner, id, q) => {
          const variables = q === undefined ? { owner, id } : { owner, id, q };
          const uri = `notes://${encodeUnreserved(owner)}/${encodeUnreserved(id)}${query({ q })}`;
          expect(template.match(uri)).toEqual(variables);
        },
      ),
    );
  });
});

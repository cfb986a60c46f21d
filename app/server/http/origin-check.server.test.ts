import { describe, expect, it } from "vitest";
import { isForeignOriginRequest } from "./origin-check.server";

const base = { path: "/signin", host: "localhost:3000", protocol: "http", secFetchSite: undefined };

describe("isForeignOriginRequest", () => {
  it("lets safe methods through whatever the origin", () => {
    expect(isForeignOriginRequest({ ...base, method: "GET", origin: "https://evil.com" }, [])).toBe(false);
  });
  it("accepts a same-origin POST and one without Origin", () => {
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: "http://localhost:3000" }, [])).toBe(false);
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: undefined }, [])).toBe(false);
  });
  it("refuses a POST without Origin whose Referer is foreign, and accepts one whose Referer is ours", () => {
    expect(
      isForeignOriginRequest({ ...base, method: "POST", origin: undefined, referer: "https://evil.com/page?x=1" }, []),
    ).toBe(true);
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: undefined, referer: "not a url" }, [])).toBe(true);
    expect(
      isForeignOriginRequest(
        { ...base, method: "POST", origin: undefined, referer: "http://localhost:3000/signin" },
        [],
      ),
    ).toBe(false);
    expect(
      isForeignOriginRequest({ ...base, method: "POST", origin: undefined, referer: "https://app.example/x" }, [
        "https://app.example",
      ]),
    ).toBe(false);
    // Origin, when present, decides.
    expect(
      isForeignOriginRequest(
        { ...base, method: "POST", origin: "http://localhost:3000", referer: "https://evil.com/" },
        [],
      ),
    ).toBe(false);
  });
  it("refuses a foreign, a null and a cross-site POST", () => {
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: "https://evil.com" }, [])).toBe(true);
    expect(isForeignOriginRequest({ ...base, method: "DELETE", origin: "null" }, [])).toBe(true);
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: undefined, secFetchSite: "cross-site" }, [])).toBe(
      true,
    );
    // Same host, other scheme is another origin.
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: "https://localhost:3000" }, [])).toBe(true);
  });
  it("trusts the browser's own Sec-Fetch-Site: same-origin", () => {
    expect(isForeignOriginRequest({ ...base, method: "POST", origin: "null", secFetchSite: "same-origin" }, [])).toBe(
      false,
    );
    expect(
      isForeignOriginRequest({ ...base, method: "POST", origin: "https://evil.com", secFetchSite: "same-site" }, []),
    ).toBe(true);
  });
  it("accepts trusted origins and exempt callback paths", () => {
    expect(
      isForeignOriginRequest({ ...base, method: "POST", origin: "https://grader.app" }, ["https://grader.app"]),
    ).toBe(false);
    expect(
      isForeignOriginRequest(
        {
          ...base,
          path: "/oauth/apple-callback",
          method: "POST",
          origin: "https://appleid.apple.com",
          secFetchSite: "cross-site",
        },
        [],
      ),
    ).toBe(false);
  });
});

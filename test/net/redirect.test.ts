import { describe, expect, it } from "vitest";
import { redirectHop } from "../../src/net/redirect.js";

const FROM = new URL("https://a.example.com/start?q=1");
const caller = {
  authorization: "Bearer test-SECRET-token",
  "X-Api-Key": "test-SECRET-key",
  cookie: "s=1",
  "content-type": "application/json",
  "content-length": "12",
  "x-trace": "t1",
};

describe("redirectHop", () => {
  it.each([200, 204, 304, 300, 305, 404, 500])("%i is no redirect, whatever its Location", (status) => {
    expect(redirectHop(status, { location: "/next" }, "GET", caller, FROM)).toBeUndefined();
  });

  it.each([301, 302, 303, 307, 308])("%i without a Location is no redirect", (status) => {
    expect(redirectHop(status, {}, "GET", caller, FROM)).toBeUndefined();
    expect(redirectHop(status, { location: "" }, "GET", caller, FROM)).toBeUndefined();
  });

  it("names a Location that is no URL", () => {
    expect(redirectHop(302, { location: "http://[bad" }, "GET", caller, FROM)).toBe("invalid");
  });

  it("resolves a relative Location against the URL that answered", () => {
    const hop = redirectHop(
      302,
      { location: "../b?x=2#f" },
      "GET",
      caller,
      new URL("https://a.example.com/p/q"),
    );
    expect(hop).toMatchObject({ url: "https://a.example.com/b?x=2#f" });
  });

  it.each([
    [301, "GET", "GET"],
    [302, "GET", "GET"],
    [303, "GET", "GET"],
    [307, "GET", "GET"],
    [308, "GET", "GET"],
    [301, "POST", "GET"],
    [302, "POST", "GET"],
    [303, "POST", "GET"],
    [307, "POST", "POST"],
    [308, "POST", "POST"],
    [303, "HEAD", "GET"],
    [301, "HEAD", "HEAD"],
    [307, "HEAD", "HEAD"],
  ])("%i after %s goes on as %s", (status, method, next) => {
    const hop = redirectHop(status, { location: "/next" }, method, caller, FROM);
    if (!hop || hop === "invalid") throw new Error("expected a hop");
    expect(hop.method).toBe(next);
    const keepsBody = next === method && status !== 303;
    expect("content-type" in hop.headers).toBe(keepsBody);
    expect("content-length" in hop.headers).toBe(keepsBody);
  });

  it("keeps every header of the caller on the same origin, and the same object when nothing is dropped", () => {
    const hop = redirectHop(307, { location: "/next" }, "POST", caller, FROM);
    expect(hop).toMatchObject({ headers: caller });
    if (hop && hop !== "invalid") expect(hop.headers).toBe(caller);
  });

  it.each(["https://b.example.com/", "http://a.example.com/start", "https://a.example.com:8443/"])(
    "drops credentials, and only them, for another origin: %s",
    (location) => {
      const hop = redirectHop(307, { location }, "POST", caller, FROM);
      if (!hop || hop === "invalid") throw new Error("expected a hop");
      expect(hop.headers).toEqual({
        "content-type": "application/json",
        "content-length": "12",
        "x-trace": "t1",
      });
      expect(caller.authorization).toBe("Bearer test-SECRET-token");
    },
  );
});

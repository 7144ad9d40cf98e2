import { describe, expect, it } from "vitest";
import { acceptLanguage, CHROME_USER_AGENT } from "../../src/net/client.js";
import { get, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
type Echo = { headers: Record<string, string> };
const echo = async (options: Parameters<typeof get>[3] = {}) => {
  const r = await get(ctx.net, "https://www.example.com/echo", 5000, options);
  if (!r.ok) throw new Error(r.message);
  return (r.json() as Echo).headers;
};

describe("rule 6: manners", () => {
  it("keeps no cookie jar: a Set-Cookie is never sent back", async () => {
    const set = await get(ctx.net, "https://www.example.com/set-cookie");
    expect(set.ok && set.headers["set-cookie"]).toMatch(/session=/);
    const headers = await echo();
    expect(headers.cookie).toBeUndefined();
    ctx.sim.route("jar.example.com", "/", {
      status: 302,
      headers: { "set-cookie": "a=b", location: "/next" },
    });
    ctx.sim.route("jar.example.com", "/next", (req) => ({ body: req.headers.cookie ?? "no cookie" }));
    const r = await get(ctx.net, "https://jar.example.com/");
    expect(r.ok && r.text()).toBe("no cookie");
  });

  it("sends one current desktop Chrome user agent", async () => {
    const headers = await echo();
    expect(headers["user-agent"]).toBe(CHROME_USER_AGENT);
    expect(headers["user-agent"]).toMatch(
      /^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\).* Chrome\/\d{3}\.0\.0\.0 Safari\/537\.36$/,
    );
    expect(headers["user-agent"]).not.toMatch(/node|undici|websift/i);
    expect(headers.accept).toMatch(/text\/html/);
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("derives Accept-Language from the request's locale", async () => {
    expect((await echo())["accept-language"]).toBe("en-US,en;q=0.9");
    expect((await echo({ locale: "de-DE" }))["accept-language"]).toBe("de-DE,de;q=0.9,en;q=0.8");
    expect((await echo({ locale: "fr" }))["accept-language"]).toBe("fr,en;q=0.8");
    expect(acceptLanguage("pt_BR")).toBe("pt-BR,pt;q=0.9,en;q=0.8");
  });

  it("lets a caller's header win (a provider's API key, its own Accept)", async () => {
    const headers = await echo({ headers: { Accept: "application/json", "X-Subscription-Token": "t" } });
    expect(headers.accept).toBe("application/json");
    expect(headers["x-subscription-token"]).toBe("t");
  });
});

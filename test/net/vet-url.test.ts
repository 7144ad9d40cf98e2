import { describe, expect, it } from "vitest";
import { vetUrl } from "../../src/net/vet-url.js";

const publicOnly = async () => ["93.184.215.14"];
const vet = (url: string) => vetUrl(url, { resolve: publicOnly });

describe("vetUrl: rule 1, refused literals", () => {
  const refusedV4 = [
    ["http://127.0.0.1/", "loopback"],
    ["http://2130706433/", "loopback as one decimal number"],
    ["http://0x7f.1/", "loopback in hex, short form"],
    ["http://127.1/", "loopback, short form"],
    ["http://0177.0.0.1/", "loopback in octal"],
    ["http://127.255.255.254/", "loopback /8"],
    ["http://10.0.0.1/", "private 10/8"],
    ["http://172.16.0.1/", "private 172.16/12"],
    ["http://172.31.255.255/", "private 172.16/12, top"],
    ["http://192.168.1.1/", "private 192.168/16"],
    ["http://169.254.169.254/latest/meta-data/", "link-local (cloud metadata)"],
    ["http://100.64.0.1/", "CGNAT 100.64/10"],
    ["http://100.127.255.254/", "CGNAT top"],
    ["http://0.0.0.0/", "unspecified"],
    ["http://0/", "unspecified as a number"],
    ["http://255.255.255.255/", "broadcast"],
    ["http://224.0.0.1/", "multicast"],
    ["http://239.255.255.250/", "multicast (SSDP)"],
    ["http://240.0.0.1/", "reserved 240/4"],
    ["http://198.18.0.1/", "benchmarking 198.18/15"],
    ["http://198.19.255.1/", "benchmarking top"],
    ["http://192.0.2.1/", "documentation TEST-NET-1"],
    ["http://198.51.100.1/", "documentation TEST-NET-2"],
    ["http://203.0.113.1/", "documentation TEST-NET-3"],
    ["http://192.0.0.8/", "IETF protocol assignments 192.0.0/24"],
  ] as const;
  it.each(refusedV4)("%s (%s)", async (url) => {
    const r = await vet(url);
    expect(r).toMatchObject({ ok: false, code: "blocked_url" });
  });

  const refusedV6 = [
    ["http://[::1]/", "loopback"],
    ["http://[::]/", "unspecified"],
    ["http://[fe80::1]/", "link-local"],
    ["http://[fc00::1]/", "unique-local"],
    ["http://[fd12:3456::1]/", "unique-local"],
    ["http://[fec0::1]/", "site-local"],
    ["http://[ff02::1]/", "multicast"],
    ["http://[2001:db8::1]/", "documentation"],
    ["http://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
    ["http://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"],
    ["http://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
    ["http://[::ffff:169.254.169.254]/", "IPv4-mapped metadata"],
    ["http://[::127.0.0.1]/", "IPv4-compatible loopback"],
    ["http://[::10.0.0.1]/", "IPv4-compatible private"],
    ["http://[64:ff9b::7f00:1]/", "NAT64 of loopback"],
    ["http://[64:ff9b::a00:1]/", "NAT64 of private"],
    ["http://[64:ff9b:1::a00:1]/", "local-use NAT64"],
    ["http://[2002:7f00:1::]/", "6to4 of loopback"],
    ["http://[2002:a00:1::1]/", "6to4 of private"],
    ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "Teredo, client 127.0.0.1"],
    ["http://[2001:0:a00:1::1]/", "Teredo, server 10.0.0.1"],
    ["http://[::ffff:0:7f00:1]/", "SIIT (rfc6145) loopback"],
  ] as const;
  it.each(refusedV6)("%s (%s)", async (url) => {
    const r = await vet(url);
    expect(r).toMatchObject({ ok: false, code: "blocked_url" });
  });
});

describe("vetUrl: rule 1, refused names, schemes, credentials and ports", () => {
  const refused = [
    "http://localhost/",
    "http://LOCALHOST./",
    "http://foo.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://db.internal/",
    "http://router.home.arpa/",
    "http://intranet/",
    "file:///etc/passwd",
    "ftp://example.com/",
    "gopher://example.com/",
    "javascript:alert(1)",
    "data:text/html,hi",
    "ws://example.com/",
    "http://user:pass@example.com/",
    "http://user@example.com/",
    "https://:secret@example.com/",
    "http://example.com:25/",
    "http://example.com:22/",
    "http://example.com:6667/",
    "https://example.com:110/",
    "http://example.com:10080/",
    "not a url",
    "",
  ];
  it.each(refused)("%s", async (url) => {
    const r = await vet(url);
    expect(r).toMatchObject({ ok: false, code: "blocked_url" });
    expect(r.ok || r.reason).toMatch(/^[^\n]+$/);
  });

  it("refuses internal names before any lookup", async () => {
    let asked = 0;
    const r = await vetUrl("http://metadata.google.internal/", {
      resolve: async () => {
        asked++;
        return ["93.184.215.14"];
      },
    });
    expect(r.ok).toBe(false);
    expect(asked).toBe(0);
  });
});

describe("vetUrl: allowed", () => {
  const allowed = [
    ["http://93.184.215.14/", ["93.184.215.14"]],
    ["http://8.8.8.8:8080/path?q=1", ["8.8.8.8"]],
    ["https://1.1.1.1/", ["1.1.1.1"]],
    ["http://[2606:4700:4700::1111]/", ["2606:4700:4700::1111"]],
    ["http://[::ffff:8.8.8.8]/", null],
    ["http://[2002:808:808::1]/", null],
    ["https://example.com/", ["93.184.215.14"]],
    ["https://example.com:8443/", ["93.184.215.14"]],
    ["http://example.com:8080/", ["93.184.215.14"]],
    ["https://münchen.de/", ["93.184.215.14"]],
    ["https://例え.jp/パス", ["93.184.215.14"]],
    ["https://xn--bcher-kva.example/", ["93.184.215.14"]],
    ["HTTPS://WWW.EXAMPLE.COM/", ["93.184.215.14"]],
  ] as const;
  it.each(allowed)("%s", async (url, addresses) => {
    const r = await vet(url);
    expect(r.ok).toBe(true);
    if (addresses && r.ok) expect(r.addresses).toEqual(addresses);
  });

  it("hands IDN hosts to the resolver in punycode", async () => {
    const asked: string[] = [];
    await vetUrl("https://münchen.de/", {
      resolve: async (h) => {
        asked.push(h);
        return ["93.184.215.14"];
      },
    });
    expect(asked).toEqual(["xn--mnchen-3ya.de"]);
  });
});

describe("vetUrl: rule 2, the resolved addresses", () => {
  const withAnswer = (addresses: string[]) =>
    vetUrl("https://example.com/", { resolve: async () => addresses });

  it("accepts an all-public answer, v4 and v6", async () => {
    const r = await withAnswer(["93.184.215.14", "2606:2800:220:1:248:1893:25c8:1946"]);
    expect(r).toEqual({ ok: true, addresses: ["93.184.215.14", "2606:2800:220:1:248:1893:25c8:1946"] });
  });
  it.each([
    [["127.0.0.1"]],
    [["10.0.0.7"]],
    [["169.254.169.254"]],
    [["::1"]],
    [["::ffff:127.0.0.1"]],
    [["fd00::1"]],
    [["93.184.215.14", "10.0.0.7"]],
    [["10.0.0.7", "93.184.215.14"]],
    [["2606:2800:220:1:248:1893:25c8:1946", "fe80::1"]],
    [[]],
    [["not-an-ip"]],
  ])("refuses %j whole", async (addresses) => {
    const r = await withAnswer(addresses);
    expect(r).toMatchObject({ ok: false, code: "blocked_url" });
  });

  it("names a failed lookup", async () => {
    const nx = Object.assign(new Error("getaddrinfo ENOTFOUND example.com"), { code: "ENOTFOUND" });
    const r = await vetUrl("https://example.com/", {
      resolve: async () => {
        throw nx;
      },
    });
    expect(r).toMatchObject({ ok: false, code: "dns" });
  });

  it("uses the system resolver by default (a literal needs none)", async () => {
    expect(await vetUrl("http://93.184.215.14/")).toEqual({ ok: true, addresses: ["93.184.215.14"] });
    expect(await vetUrl("http://localhost/")).toMatchObject({ ok: false, code: "blocked_url" });
  });
});

describe("vetUrl behind a proxy", () => {
  const noDns = async (hostname: string): Promise<string[]> => {
    throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname}`), { code: "EAI_AGAIN" });
  };
  const env = { HTTPS_PROXY: "http://proxy.corp.example:3128", NO_PROXY: ".intranet.example" };

  it("a name the proxy carries is not resolved locally (the proxy resolves it)", async () => {
    expect(await vetUrl("https://www.example.com/a", { resolve: noDns, env })).toEqual({
      ok: true,
      addresses: [],
      viaProxy: true,
    });
  });

  it("rule 1 still holds for what the proxy would carry", async () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://localhost/",
      "https://u:p@www.example.com/",
      "file:///x",
    ])
      expect((await vetUrl(url, { resolve: noDns, env })).ok).toBe(false);
  });

  it("a name NO_PROXY exempts, or a scheme no proxy carries, is resolved and vetted as usual", async () => {
    const r = await vetUrl("https://wiki.intranet.example/", { resolve: async () => ["10.1.2.3"], env });
    expect(r.ok).toBe(false);
    expect((await vetUrl("http://www.example.com/", { resolve: noDns, env })).ok).toBe(false);
    expect(await vetUrl("http://www.example.com/", { resolve: publicOnly, env })).toEqual({
      ok: true,
      addresses: ["93.184.215.14"],
    });
  });
});

import { describe, expect, it } from "vitest";
import { decodeText } from "../../src/net/decode.js";
import { get, useSimWeb } from "./harness.js";

const ctx = useSimWeb();
const hex = (h: string) => Buffer.from(h.replace(/\s/g, ""), "hex");
const html = (head: string, body: Buffer) =>
  Buffer.concat([
    Buffer.from(`<!doctype html><html><head>${head}<title>t</title></head><body><p>`),
    body,
    Buffer.from("</p></body></html>"),
  ]);

async function served(contentType: string | undefined, body: Buffer): Promise<string> {
  ctx.sim.route("enc.example.org", "/", {
    headers: contentType ? { "content-type": contentType } : {},
    body,
  });
  const r = await get(ctx.net, "https://enc.example.org/");
  if (!r.ok) throw new Error(r.message);
  return r.text();
}

describe("rule 5: decoding", () => {
  it.each([
    ["windows-1252", "636166e92080", "café €"],
    ["Shift_JIS", "93fa967b8cea", "日本語"],
    ["GBK", "d6d0cec4", "中文"],
    ["gb2312", "d6d0cec4", "中文"],
    ["EUC-KR", "c7d1b1b9beee", "한국어"],
    ["KOI8-R", "f0d2c9d7c5d4", "Привет"],
    ["iso-8859-1", "636166e9", "café"],
  ])("charset from the Content-Type header: %s", async (label, bytes, text) => {
    expect(await served(`text/html; charset=${label}`, html("", hex(bytes)))).toContain(text);
    expect(await served(`text/plain; charset="${label}"`, hex(bytes))).toBe(text);
  });

  it.each([
    ['<meta charset="shift_jis">', "93fa967b8cea", "日本語"],
    ['<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', "f0d2c9d7c5d4", "Привет"],
    ["<meta charset=euc-kr>", "c7d1b1b9beee", "한국어"],
    ["<meta charset='gbk'>", "d6d0cec4", "中文"],
  ])("charset from %s when the header has none", async (meta, bytes, text) => {
    expect(await served("text/html", html(meta, hex(bytes)))).toContain(text);
  });

  it("a BOM wins over the header and the meta tag", async () => {
    const utf8 = Buffer.concat([hex("efbbbf"), Buffer.from("<meta charset=koi8-r><p>naïve ✓</p>")]);
    expect(await served("text/html; charset=windows-1252", utf8)).toContain("naïve ✓");
    const utf16 = Buffer.concat([hex("fffe"), Buffer.from("<p>naïve</p>", "utf16le")]);
    expect(await served("text/html; charset=windows-1252", utf16)).toContain("naïve");
  });

  it("the header wins over the meta tag", async () => {
    expect(
      await served("text/html; charset=koi8-r", html("<meta charset=windows-1252>", hex("f0d2c9d7c5d4"))),
    ).toContain("Привет");
  });

  it("an invalid charset label falls back to sniffing, without a throw", async () => {
    expect(await served("text/html; charset=x-no-such-charset", Buffer.from("<p>déjà vu</p>"))).toContain(
      "déjà vu",
    );
    expect(
      await served(
        "text/html; charset=x-no-such-charset",
        html("<meta charset=koi8-r>", hex("f0d2c9d7c5d4")),
      ),
    ).toContain("Привет");
    expect(await served("text/html; charset=", Buffer.from("<p>ok</p>"))).toContain("ok");
  });

  it("undeclared: UTF-8 when it is valid, else windows-1252", async () => {
    expect(await served(undefined, Buffer.from("<p>Grüße</p>"))).toContain("Grüße");
    expect(
      await served("text/html", Buffer.concat([Buffer.from("<p>caf"), hex("e9"), Buffer.from("</p>")])),
    ).toContain("café");
  });

  it("JSON is UTF-8 whatever the page would say", async () => {
    ctx.sim.route("enc.example.org", "/j", {
      headers: { "content-type": "application/json" },
      body: '{"q":"日本"}',
    });
    const r = await get(ctx.net, "https://enc.example.org/j");
    expect(r.ok && r.json()).toEqual({ q: "日本" });
  });

  it("decodeText reports the charset it used", () => {
    expect(decodeText(hex("93fa967b8cea"), "text/plain; charset=sjis")).toEqual({
      text: "日本語",
      charset: "Shift_JIS",
    });
  });
});

describe("windows-1252 as the WHATWG Encoding Standard has it", () => {
  it("maps 0x80–0x9F to € “ ” – — … (Node 20's decoder leaves C1 controls)", () => {
    const bytes = hex("80 93 94 96 97 85 99 8c 9f e9");
    for (const label of ["windows-1252", "latin1", "iso-8859-1", "us-ascii"])
      expect(decodeText(bytes, `text/plain; charset=${label}`).text).toBe("€“”–—…™ŒŸé");
  });
});

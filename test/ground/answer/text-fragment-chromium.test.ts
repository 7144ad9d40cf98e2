import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebsift } from "../../../src/websift.js";
import { type SimWeb, startSimWeb } from "../../simweb/index.js";
import { ddgResultsPage } from "./ddg-page.js";

const CHROMIUM_PATH = "/usr/bin/chromium";
const HTML = { "content-type": "text/html; charset=utf-8" };
const FILLER = "Hiking trails and huts near Garmisch are open from May until October every year.";
// Far apart, so that the paragraph Chromium scrolls to tells which one a link opened at.
const spaced = (id: string, text: string) => `<p id="${id}" style="margin-top:2500px">${text}</p>`;
const PARAGRAPHS: Record<string, string> = {
  lead: "The Zugspitze is the highest peak of Germany, at 2,962&nbsp;metres above the sea.",
  glacier:
    "The Zugspitze is also home to a <b>glacier</b>, the Northern Schneeferner, which may vanish by 2030.",
  eis: "Über den Gletscher (glacier) am Zugspitzplatt: „Bis 2030 ist er weg“, sagen Forscher – es ist 3 °C wärmer.",
};
const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Zugspitze</title></head><body>
<nav><a href="/">Home</a> <a href="/z">The Zugspitze is here</a></nav>
<main><article><h1>Zugspitze</h1>
${spaced("lead", PARAGRAPHS.lead)}
${Array.from({ length: 6 }, (_, i) => spaced(`f${i}`, FILLER)).join("\n")}
${spaced("glacier", PARAGRAPHS.glacier)}
${Array.from({ length: 6 }, (_, i) => spaced(`g${i}`, FILLER)).join("\n")}
${spaced("eis", PARAGRAPHS.eis)}
${Array.from({ length: 6 }, (_, i) => spaced(`h${i}`, FILLER)).join("\n")}
</article></main><footer style="margin-top:2500px">The Zugspitze is also home to nobody's trademark.</footer>
<div style="height:6000px"></div></body></html>`;

describe.skipIf(!existsSync(CHROMIUM_PATH))("answer's passage links in real Chromium", () => {
  let web: SimWeb;
  let loopback: Server;
  let browser: Browser;
  beforeAll(async () => {
    web = await startSimWeb();
    // Chromium reads the same page from loopback: nothing leaves the machine.
    loopback = createServer((_, res) => {
      res.setHeader("content-type", HTML["content-type"]);
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox"] });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => loopback?.close(resolve));
    await web?.close();
  });

  it("each link scrolls Chromium to its own passage, past repeated starts, non-ASCII text included", async () => {
    web.route("html.duckduckgo.com", "/html/", {
      headers: HTML,
      body: ddgResultsPage([
        { title: "Zugspitze", url: "https://www.example.com/z", snippet: "Zugspitze glacier" },
      ]),
    });
    web.route("www.example.com", "/z", { headers: HTML, body: PAGE });
    const websift = createWebsift({ ...web.netConfig, env: {}, settings: { ddgRetryDelayMs: 5 } });
    const res = await websift.answer("zugspitze glacier height", { maxChars: 1200 });
    await websift.close();
    const passages = res.sources[0]?.passages ?? [];
    const expected = (text: string) =>
      Object.entries(PARAGRAPHS).find(([, p]) =>
        p
          .replace(/<[^>]+>/g, "")
          .replace("&nbsp;", " ")
          .startsWith(text.slice(0, 30)),
      )?.[0];
    const ids = passages.map((p) => expected(p.text));
    expect(ids).toEqual(["lead", "glacier", "eis"]);

    const origin = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}`;
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const opened: (string | undefined)[] = [];
    for (const p of passages) {
      expect(p.link, JSON.stringify(passages)).toBeDefined();
      await page.goto("about:blank");
      await page.goto(p.link!.replace("https://www.example.com", origin));
      // Chromium scrolls once the page has loaded; every passage stands far below the first screen.
      await page.waitForFunction(() => window.scrollY > 0, undefined, { timeout: 10_000 }).catch(() => {});
      opened.push(
        await page.evaluate(() => {
          const inView = Array.from(document.querySelectorAll("p[id], footer")).filter((el) => {
            const r = el.getBoundingClientRect();
            return r.bottom > 0 && r.top < window.innerHeight;
          });
          return inView.map((el) => el.id || el.tagName.toLowerCase()).join(" ") || undefined;
        }),
      );
    }
    await page.close();
    expect(opened).toEqual(ids);
  }, 60_000);
});

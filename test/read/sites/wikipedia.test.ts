import { describe, expect, it } from "vitest";
import { pagePoolState } from "../../../src/read/page-pool.js";
import { read } from "../../../src/read/read.js";
import { wikipediaTarget } from "../../../src/read/sites/wikipedia.js";
import { article, html, PARAGRAPHS } from "../ladder/harness.js";
import { json, siteFixture } from "./site-fixtures.js";
import { useReadHarness } from "./site-harness.js";

const h = useReadHarness();

const never = { render: "never" as const, maxChars: 20_000 };
const EN = "en.wikipedia.org";
const lowmouth = () => JSON.parse(siteFixture("wikipedia", "lowmouth-harbour.parse.json"));
const apiCalls = () => h.sim.requests.filter((r) => r.path === "/w/api.php").map((r) => r.url.searchParams);

describe("Wikipedia reader: which URLs it takes", () => {
  const t = (u: string) => wikipediaTarget(new URL(u));
  it("takes articles on every language's wiki, desktop and mobile, by title, revision or page id", () => {
    expect(t("https://en.wikipedia.org/wiki/Ada_Lovelace")).toEqual({ wiki: "en", page: "Ada Lovelace" });
    expect(t("https://de.m.wikipedia.org/wiki/Hafen_Niederm%C3%BCnd")).toEqual({
      wiki: "de",
      page: "Hafen Niedermünd",
    });
    expect(t("https://zh-yue.wikipedia.org/wiki/X")).toEqual({ wiki: "zh-yue", page: "X" });
    expect(t("https://simple.wikipedia.org/wiki/Moon")).toEqual({ wiki: "simple", page: "Moon" });
    expect(t("https://en.wikipedia.org/w/index.php?title=Ada_Lovelace&oldid=123456")).toEqual({
      wiki: "en",
      page: "Ada Lovelace",
      oldid: "123456",
    });
    expect(t("https://en.wikipedia.org/wiki/Ada_Lovelace?oldid=99")).toMatchObject({ oldid: "99" });
    expect(t("https://en.wikipedia.org/w/index.php?curid=4821977")).toEqual({ wiki: "en", curid: "4821977" });
    expect(t("https://en.wikipedia.org/wiki/AC/DC")).toMatchObject({ page: "AC/DC" });
  });

  it("leaves edits, histories, diffs, special pages, the portals and the API itself to the generic ladder", () => {
    expect(t("https://en.wikipedia.org/w/index.php?title=Ada_Lovelace&action=edit")).toBeUndefined();
    expect(t("https://en.wikipedia.org/w/index.php?title=Ada_Lovelace&action=history")).toBeUndefined();
    expect(t("https://en.wikipedia.org/w/index.php?title=X&diff=2&oldid=1")).toBeUndefined();
    expect(t("https://en.wikipedia.org/wiki/Special:Random")).toBeUndefined();
    expect(t("https://www.wikipedia.org/wiki/Ada")).toBeUndefined();
    expect(t("https://m.wikipedia.org/wiki/Ada")).toBeUndefined();
    expect(t("https://en.wikipedia.org/w/api.php?action=parse&page=X")).toBeUndefined();
    expect(t("https://en.wikipedia.org/wiki/")).toBeUndefined();
    expect(t("https://en.wikipedia.org/wiki/%E0%A4%A")).toBeUndefined();
    expect(t("https://en.wikipedia.org.evil.example/wiki/X")).toBeUndefined();
  });
});

describe("Wikipedia reader: an article through the parse API", () => {
  it("reads the article's text with the infobox as a table after the lead, without the apparatus around it", async () => {
    h.sim.route(EN, "/w/api.php", json(lowmouth()));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      source: "site",
      reader: { name: "wikipedia", via: "en.wikipedia.org parse API" },
      title: "Lowmouth Harbour",
      lang: "en",
      finalUrl: "https://en.wikipedia.org/wiki/Lowmouth_Harbour",
    });
    const md = page.markdown;
    expect(md.startsWith("# Lowmouth Harbour\n\nLowmouth Harbour is a tidal harbour")).toBe(true);
    // The lead, then the infobox, then the first section.
    expect(md).toContain(
      "a lifeboat station.\n\n| Lowmouth Harbour | |\n| --- | --- |\n| **Details** | |\n| Location | Westshire, England |\n| Opened | 14 June 1925 |\n| Operator | Lowmouth Harbour Board; Westshire County Council |\n| Breakwater | 640 m (2,100 ft) |",
    );
    expect(md.indexOf("| Lowmouth Harbour | |")).toBeLessThan(md.indexOf("## History"));
    expect(md).toContain("$d = 4.2$ metres");
    expect(md).toContain("| 1930 | 41,000 | 12,500 |");
    expect(md).toContain("## See also\n\n- List of harbours in England");
    for (const gone of [
      "[1]",
      "citation needed",
      "For the village",
      "needs additional citations",
      "Harbour in the county",
      "The wooden piers in 1910",
      "low tide",
      "1925-06-14",
      "## Notes",
      "Westshire Gazette",
      "## References",
      "The Granite Harbour",
      "## External links",
      "Harbour archive",
      "Ports of Westshire",
      "Highcliff",
      "NewPP",
      ".mw-parser-output",
      "[edit]",
    ])
      expect(md, gone).not.toContain(gone);
    const [call] = apiCalls();
    expect(Object.fromEntries(call!)).toMatchObject({
      action: "parse",
      page: "Lowmouth Harbour",
      redirects: "1",
      formatversion: "2",
      prop: "text|displaytitle|revid",
    });
    expect(h.sim.requests[0]!.headers["user-agent"]).toMatch(/^websift\//);
  });

  it("gives a child box's rows in its place in the infobox, not as one run of text", async () => {
    const answer = lowmouth();
    const child =
      '<tr><td colspan="2" class="infobox-full-data"><table class="infobox-subbox infobox-3cols-child"><tbody>' +
      '<tr><th colspan="2" class="infobox-header">Lifeboat station</th></tr>' +
      '<tr><th class="infobox-label">Opened</th><td class="infobox-data">1931</td></tr>' +
      '<tr><th class="infobox-label">Boats</th><td class="infobox-data">2</td></tr></tbody></table></td></tr>';
    answer.parse.text = answer.parse.text.replace(
      '<tr><th scope="row" class="infobox-label">Website</th>',
      `${child}<tr><th scope="row" class="infobox-label">Website</th>`,
    );
    h.sim.route(EN, "/w/api.php", json(answer));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page.markdown).toContain(
      "| **Lifeboat station** | |\n| Opened | 1931 |\n| Boats | 2 |\n| Website |",
    );
  });

  it("reads Parsoid's sectioned output on another language's wiki, from a mobile URL, in that language", async () => {
    h.sim.route(
      "de.wikipedia.org",
      "/w/api.php",
      json(siteFixture("wikipedia", "hafen-niedermuend.parse.json")),
    );
    const page = await read("https://de.m.wikipedia.org/wiki/Hafen_Niederm%C3%BCnd", never, h.ctx());
    expect(page).toMatchObject({
      status: "ok",
      lang: "de",
      title: "Hafen Niedermünd",
      finalUrl: "https://de.wikipedia.org/wiki/Hafen_Niederm%C3%BCnd",
    });
    expect(page.markdown).toContain("ist ein Tidehafen an der Westküste. Er wurde");
    expect(page.markdown).toContain("| Lage | Westküste |");
    expect(page.markdown).toContain("## Geschichte");
    for (const gone of ["[1]", "Einzelnachweise", "Westshire-Zeitung", "Weblinks", "Offizielle Website"])
      expect(page.markdown, gone).not.toContain(gone);
    expect(h.sim.requests.map((r) => r.host)).toEqual(["de.wikipedia.org"]);
  });

  it("reads a long article's parser output on the page pool, off the caller's event loop", async () => {
    const answer = lowmouth();
    const history = '<h2 id="History">History</h2></div>';
    const more = Array.from(
      { length: 1500 },
      (_, i) => `<p>Paragraph ${i} of the harbour's long history.</p>`,
    );
    answer.parse.text = answer.parse.text.replace(history, `${history}${more.join("")}`);
    expect(answer.parse.text.length).toBeGreaterThan(64 * 1024);
    h.sim.route(EN, "/w/api.php", json(answer));
    const before = pagePoolState().completed;
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page.status).toBe("ok");
    expect(page.markdown).toContain("## History\n\nParagraph 0 of the harbour's long history.");
    expect(page.markdown).toContain("| Operator | Lowmouth Harbour Board; Westshire County Council |");
    expect(pagePoolState().completed).toBe(before + 1);
  });

  it("says the language of wikis whose subdomain is not its tag", async () => {
    h.sim.route("zh-yue.wikipedia.org", "/w/api.php", json(lowmouth()));
    h.sim.route("simple.wikipedia.org", "/w/api.php", json(lowmouth()));
    expect((await read("https://zh-yue.wikipedia.org/wiki/X", never, h.ctx())).lang).toBe("yue");
    expect((await read("https://simple.wikipedia.org/wiki/X", never, h.ctx())).lang).toBe("en");
  });

  it("follows a redirect: the result's title and URL are the target's, with its section", async () => {
    const answer = lowmouth();
    answer.parse.redirects = [{ from: "Lowmouth harbour", to: "Lowmouth Harbour", tofragment: "Trade" }];
    h.sim.route(EN, "/w/api.php", json(answer));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_harbour", never, h.ctx());
    expect(page.title).toBe("Lowmouth Harbour");
    expect(page.finalUrl).toBe("https://en.wikipedia.org/wiki/Lowmouth_Harbour#Trade");
  });

  it("reads one revision by its id", async () => {
    h.sim.route(EN, "/w/api.php", json(lowmouth()));
    const page = await read(
      "https://en.wikipedia.org/w/index.php?title=Lowmouth_Harbour&oldid=1254310099",
      never,
      h.ctx(),
    );
    expect(page.status).toBe("ok");
    expect(Object.fromEntries(apiCalls()[0]!)).toMatchObject({ oldid: "1254310099" });
    expect(apiCalls()[0]!.has("page")).toBe(false);
    expect(page.finalUrl).toBe(
      "https://en.wikipedia.org/w/index.php?title=Lowmouth_Harbour&oldid=1254310099",
    );
  });

  it("an article the wiki does not have is the page's own answer, with the API's miss on record", async () => {
    h.sim.route(EN, "/w/api.php", json(siteFixture("wikipedia", "missingtitle.json")));
    h.sim.route(EN, "/wiki/No_such_harbour", {
      status: 404,
      headers: { "content-type": "text/html" },
      body: "",
    });
    const page = await read("https://en.wikipedia.org/wiki/No_such_harbour", never, h.ctx());
    expect(page.status).toBe("error");
    expect(page.attempts[0]).toMatchObject({ provider: "site:wikipedia", status: "error" });
    expect(page.attempts[0]!.error).toMatch(/doesn't exist\. \(missingtitle\)/);
  });

  it("a rate limit from the API is said as one", async () => {
    h.sim.route(
      EN,
      "/w/api.php",
      json({ error: { code: "ratelimited", info: "You've exceeded your rate limit." } }),
    );
    h.sim.route(EN, "/wiki/Lowmouth_Harbour", html(article("Lowmouth Harbour", PARAGRAPHS)));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page.attempts[0]).toMatchObject({ provider: "site:wikipedia", status: "rate_limited" });
  });

  it("says an answer without the documented shape is drift, and reads the page the generic way", async () => {
    h.sim.route(EN, "/w/api.php", json({ parse: { title: "Lowmouth Harbour", wikitext: "'''Lowmouth'''" } }));
    h.sim.route(EN, "/wiki/Lowmouth_Harbour", html(article("Lowmouth Harbour", PARAGRAPHS)));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page.source).toBe("extracted-html");
    expect(page.markdown).toContain("Lowmouth");
    expect(page.attempts[0]).toMatchObject({ provider: "site:wikipedia", status: "error" });
    expect(page.attempts[0]!.error).toMatch(
      /^wikipedia reader: the response no longer has the expected shape \(en\.wikipedia\.org\/w\/api\.php: parse\.text/,
    );
  });

  it("says parser output that yields no article text is drift too, never an empty page", async () => {
    const answer = lowmouth();
    answer.parse.text =
      '<div class="mw-parser-output"><div class="navbox" role="navigation">Ports</div></div>';
    h.sim.route(EN, "/w/api.php", json(answer));
    h.sim.route(EN, "/wiki/Lowmouth_Harbour", html(article("Lowmouth Harbour", PARAGRAPHS)));
    const page = await read("https://en.wikipedia.org/wiki/Lowmouth_Harbour", never, h.ctx());
    expect(page.source).toBe("extracted-html");
    expect(page.attempts[0]!.error).toMatch(/wikipedia reader: .*no article text/);
  });
});

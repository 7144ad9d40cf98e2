import { describe, expect, it } from "vitest";
import { findFirst, parseHtml } from "../../../src/read/extract/dom.js";
import { extractMarkdown } from "../../../src/read/extract/index.js";
import { scoreContainers, topCandidate } from "../../../src/read/extract/main-content.js";
import { TextStatsIndex } from "../../../src/read/extract/text-stats.js";

// One synthetic page per selection rule; each test fails without its rule.

const PROSE =
  "The committee met on Tuesday to review the proposal, which had been discussed for months, and agreed on a timeline. " +
  "Members noted that the budget, the staffing plan, and the schedule all needed more work before the final vote.";

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Rules</title></head><body>${body}</body></html>`;
}

function paragraphs(n: number, tag: string): string {
  return Array.from({ length: n }, (_, i) => `<p>${tag} ${i}: ${PROSE}</p>`).join("");
}

const URL = "https://example.org/a";

describe("extractMarkdown: selection rules", () => {
  it("ends a teaser block under a 'Related' heading at the next paragraph of unlinked prose", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><p><strong>Related articles</strong></p>` +
          '<p><a href="/x">Other story one</a></p>' +
          `<p>Article goes on: ${PROSE}</p><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).not.toContain("Other story one");
    expect(markdown).toContain("Article goes on:");
  });

  it("keeps a plain list inside the content: a list's tag is no evidence against it", async () => {
    const items = ["the first finding of the survey", "the second finding of the survey"]
      .map((t) => `<li>${t} stated plainly</li>`)
      .join("");
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><ul>${items}</ul><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).toContain("- the first finding of the survey stated plainly");
  });

  it("still removes a list whose class names it as chrome", async () => {
    const items = ["the first link of the widget", "the second link of the widget"]
      .map((t) => `<li>${t}, stated plainly</li>`)
      .join("");
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><ul class="tool-list">${items}</ul><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).not.toContain("the first link of the widget");
  });

  it("climbs to an ancestor that scores better than the level below it (lead outside a 'read more' wrapper)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<div class="story"><p>Lead: ${PROSE}</p><p>Second: ${PROSE}</p><p>Third: ${PROSE}</p>` +
          `<div class="more-wrap"><div class="more-link"><a href="#">Read more</a></div>` +
          `<div class="more-body">${paragraphs(6, "Body")}</div></div></div>` +
          `<div class="teasers"><p>${"Unrelated teaser text. ".repeat(4)}</p></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Lead:");
    expect(markdown).toContain("Body 5:");
  });

  it("falls back to a tree cleaned without trusting names when the article sits in a misnamed wrapper", async () => {
    for (const wrapper of [
      '<aside class="layout">',
      '<div class="sidebar_content">',
      '<div role="banner">',
    ]) {
      const close = wrapper.startsWith("<aside") ? "</aside>" : "</div>";
      const { markdown } = await extractMarkdown(
        page(`${wrapper}<h1>Budget review</h1>${paragraphs(3, "Part")}${close}`),
        URL,
      );
      expect(markdown, wrapper).toContain("Part 2:");
    }
  });

  it("still drops hidden text in the fallback", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<aside class="layout">${paragraphs(3, "Part")}<p aria-hidden="true">SECRET-INSTRUCTION</p>` +
          `<div style="display:none">SECRET-INSTRUCTION</div><template>SECRET-INSTRUCTION</template></aside>`,
      ),
      URL,
    );
    expect(markdown).toContain("Part 2:");
    expect(markdown).not.toContain("SECRET-INSTRUCTION");
  });

  it("drops the first heading when it repeats the page title, which is returned as metadata", async () => {
    const html = `<html><head><title>Budget review delayed again - Example News</title></head><body><article><h1>Budget review delayed again</h1><p>${PROSE}</p><h2>What comes next</h2><p>${PROSE}</p></article></body></html>`;
    const { title, markdown } = await extractMarkdown(html, URL);
    expect(title).toBe("Budget review delayed again - Example News");
    expect(markdown).not.toContain("Budget review delayed");
    expect(markdown).toContain("## What comes next");
  });

  it("drops the title heading also when it stands beside the content rather than inside it", async () => {
    const html = `<html><head><title>Budget review delayed again - Example News</title></head><body><div class="story"><h1>Budget review delayed again</h1><div class="body">${paragraphs(4, "Body")}</div></div></body></html>`;
    const { markdown } = await extractMarkdown(html, URL);
    expect(markdown).not.toContain("Budget review delayed");
    expect(markdown).toContain("Body 3:");
  });

  it("keeps a first heading that says something the title does not", async () => {
    const html = `<html><head><title>Example News</title></head><body><article><h1>Budget review delayed again</h1><p>${PROSE}</p></article></body></html>`;
    const { markdown } = await extractMarkdown(html, URL);
    expect(markdown).toContain("# Budget review delayed again");
  });

  it("drops an author bio box at the end of the article", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article>${paragraphs(3, "Part")}<div class="post-bio"><p>Jane Doe is a reporter based in Oslo who covers budgets.</p></div></article>`,
      ),
      URL,
    );
    expect(markdown).toContain("Part 2:");
    expect(markdown).not.toContain("Jane Doe");
  });

  it("drops image captions that end in a picture credit, and keeps prose that mentions a photo", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><figure><img src="a.jpg" alt=""><figcaption>Rescue teams in the Eifel after the flood. Foto: Galli/Malteser</figcaption></figure>` +
          `<p>Protesters at the gate. (Credit: Clayton Aldern / Grist)</p><p>The photo: a crowd, a gate and a sign.</p><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).not.toContain("Rescue teams");
    expect(markdown).not.toContain("Protesters at the gate");
    expect(markdown).toContain("The photo: a crowd, a gate and a sign.");
  });

  it("drops 'read also' lines in several languages", async () => {
    const teasers = [
      "LE PUEDE INTERESAR: La ficha del caso en Nueva York",
      "Auch lesen: Diese drei Sternzeichen",
      "Dowiedz się więcej: Kto jak głosował",
      ">> Wegen Corona: Lokal muss schließen <<",
    ];
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p>${teasers.map((t) => `<p>${t}</p>`).join("")}<p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).toContain("The committee met");
    for (const t of teasers) expect(markdown).not.toContain(t.slice(3, 20));
  });

  it("reads a 'commentary' (an opinion piece) as the article, not as reader comments", async () => {
    const comments = Array.from({ length: 30 }, (_, i) => `<li><p>Reader ${i} says: ${PROSE}</p></li>`).join(
      "",
    );
    const { markdown } = await extractMarkdown(
      page(
        `<div class="article commentary"><article>${paragraphs(10, "Opinion")}</article></div>` +
          `<div class="sect_commentlinks"><ul>${comments}</ul></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Opinion 9:");
    expect(markdown).not.toContain("Reader 0 says");
  });

  it("keeps a wrapper named like chrome when it holds most of the page's running prose", async () => {
    const menu = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/s${i}">Section number ${i}</a></li>`,
    ).join("");
    const { markdown } = await extractMarkdown(
      page(
        `<div class="menu-wrap"><ul>${menu}</ul></div>` +
          `<div class="layout newsArticleMeta"><h2>Tracking report</h2>${paragraphs(3, "Report")}</div>` +
          `<div class="extras"><ul>${"<li>Opening hours and directions to the office</li>".repeat(20)}</ul></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Report 2:");
  });

  it("keeps a data table whose cells are short, linked fragments", async () => {
    const rows = ["Maps", "Mail", "Books", "Music"]
      .map(
        (app, i) =>
          `<tr><td><div><a href="/${app}">${app}</a></div></td><td><div>${i + 10} MB</div></td><td><div>${i + 3} MB</div></td></tr>`,
      )
      .join("");
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><table><tr><th>App</th><th>Before</th><th>After</th></tr>${rows}</table><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).toContain("| Maps | 10 MB | 3 MB |");
  });

  it("keeps a dateline: it is the first words of the article's first sentence", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><p><span class="dateline">CAIRO —</span> ${PROSE}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).toContain("CAIRO — The committee met");
  });

  it("drops the short non-sentence lines after the article's last paragraph (labels, dates, appeals)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><p>${PROSE}</p><p>Category : Press Releases</p><p>Jetzt teilen</p></article>`,
      ),
      URL,
    );
    expect(markdown).not.toContain("Press Releases");
    expect(markdown).not.toContain("Jetzt teilen");
    expect(markdown.trimEnd().endsWith("before the final vote.")).toBe(true);
  });

  it("keeps a last line that is a sentence, or a label that introduces what follows", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><p>${PROSE}</p><p>It rained.</p><p>Our picks:</p></article>`),
      URL,
    );
    expect(markdown).toContain("It rained.");
    expect(markdown).toContain("Our picks:");
  });

  it("drops the short non-sentence lines above the article's first sentence (date, byline)", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><p>23.10.2018</p><p>Mark Lavin</p><p>${PROSE}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).not.toContain("23.10.2018");
    expect(markdown).not.toContain("Mark Lavin");
    expect(markdown.startsWith("The committee met")).toBe(true);
  });

  it("keeps a sibling section whose own prose scores nearly as well as the chosen one (a question beside its answers)", async () => {
    const question = `<div class="q"><div><div><p>Question: ${PROSE}</p><p>Details: ${PROSE}</p></div></div></div>`;
    const answers = `<div class="a"><p>Answer one: ${PROSE}</p><p>Answer two: ${PROSE}</p><p>Answer three: ${PROSE}</p></div>`;
    const { markdown } = await extractMarkdown(page(`<div class="wrap">${question}${answers}</div>`), URL);
    expect(markdown).toContain("Answer three:");
    expect(markdown).toContain("Question:");
  });

  it("scores a list of teaser cards by their paragraphs, so a long list does not outscore the article", () => {
    const cards = Array.from(
      { length: 16 },
      (_, i) =>
        `<li><h3><a href="/story-${i}">Teaser headline ${i}</a></h3>` +
        `<p>Summary ${i}: one, two, three, four, five, six, seven, eight, nine and ten things.</p></li>`,
    ).join("");
    const doc = parseHtml(
      page(
        `<div class="main"><div class="story">${paragraphs(10, "Article")}</div></div><div class="rail"><ul>${cards}</ul></div>`,
      ),
    );
    const body = findFirst(doc, (el) => el.name === "body")!;
    const stats = new TextStatsIndex(body);
    expect(topCandidate(body, scoreContainers(body, stats))?.attribs.class).toBe("story");
  });

  it("widens around a short article when a side column holds most of the page's prose, never away from it", async () => {
    const archive = Array.from({ length: 150 }, (_, i) => `<li>Archive entry number ${i}</li>`).join("");
    const { markdown } = await extractMarkdown(
      page(
        `<div id="wrapper"><div id="content"><div class="post">${paragraphs(2, "Short post")}</div></div>` +
          `<div id="col"><ul>${archive}</ul></div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Short post 0:");
    expect(markdown).toContain("Short post 1:");
  });

  it("keeps the header of a part of the content (an FAQ card's question), unlike the page's header", async () => {
    const faq = ["How is the interest rate of a loan computed", "When is the first payment due"]
      .map(
        (q, i) =>
          `<div class="card"><div class="card-header">${q}?</div><div class="card-body"><p>Answer ${i}: ${PROSE}</p></div></div>`,
      )
      .join("");
    const { markdown } = await extractMarkdown(
      page(
        `<div class="header">Site name and slogan</div><div class="accordion">${paragraphs(2, "Intro")}${faq}</div>`,
      ),
      URL,
    );
    expect(markdown).toContain("How is the interest rate of a loan computed?");
    expect(markdown).toContain("When is the first payment due?");
    expect(markdown).not.toContain("Site name and slogan");
  });

  it("keeps a product's header: its name and description are the product's, not the page's header", async () => {
    const description =
      "Qualità Oro was the first blend of the house, a mix of six Arabica varieties from Central and South America.";
    const { markdown } = await extractMarkdown(
      page(
        `<div class="header">Shop name and slogan</div><div class="product-header"><div class="text"><p>${description}</p></div></div>` +
          `<div class="product-details">${paragraphs(3, "Details")}</div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Qualità Oro was the first blend");
    expect(markdown).not.toContain("Shop name and slogan");
  });

  it("prefers the block marked as the product's description (schema.org itemprop) over an equal block beside it", async () => {
    const doc = parseHtml(
      page(
        `<div class="col-a"><div class="info">${paragraphs(3, "Alpha")}</div></div>` +
          `<div class="col-b"><div itemprop="description">${paragraphs(3, "Gamma")}</div></div>`,
      ),
    );
    const body = findFirst(doc, (el) => el.name === "body")!;
    const stats = new TextStatsIndex(body);
    expect(topCandidate(body, scoreContainers(body, stats))?.attribs.itemprop).toBe("description");
  });

  it("reads 'no_caption' as an item without a caption, not as a caption", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><div class="list_item image_item no_caption"><h2>The mother of a student has described how her daughter was burning up from within.</h2><img src="a.jpg" alt=""></div>` +
          `${paragraphs(4, "Body")}</article>`,
      ),
      URL,
    );
    expect(markdown).toContain("The mother of a student");
  });

  it("keeps a lead paragraph in its own wrapper beside the article body", async () => {
    const lead =
      "The lead says what the story is about and why readers should go on before the body of the report begins.";
    const { markdown } = await extractMarkdown(
      page(
        `<div class="article"><div class="teaser-text"><p>${lead}</p></div><div class="body">${paragraphs(6, "Body")}</div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain(lead);
    expect(markdown).toContain("Body 5:");
  });

  it("keeps a lead that sits in its own block before the body, a few levels from the best container", async () => {
    const lead =
      "The lead says what the story is about and why readers should go on before the body of the report begins.";
    const { markdown } = await extractMarkdown(
      page(
        `<div class="wrap"><div class="upper"><div class="intro"><div class="rich"><p>${lead}</p></div></div></div>` +
          `<div class="lower"><div class="rich">${paragraphs(6, "Body")}</div></div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain(lead);
    expect(markdown.indexOf(lead)).toBeLessThan(markdown.indexOf("Body 0:"));
  });

  it("never prunes the block that holds the chosen content when a wider region was taken around it", async () => {
    const links = Array.from(
      { length: 60 },
      (_, i) => `<li><a href="/drug-${i}">Related preparation number ${i}</a></li>`,
    ).join("");
    const product = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Product ${i}: This tablet treats mild pain and fever in adults and in children over twelve years of age.</p>`,
    ).join("");
    const legal = Array.from(
      { length: 2 },
      (_, i) =>
        `<p>Disclaimer ${i}: The information on this page does not replace the advice of a doctor or a pharmacist and it is given ` +
        "without any warranty of completeness or accuracy for any purpose so please read the leaflet in the pack before you use " +
        "the product and ask your doctor or pharmacist when you are unsure about anything.</p>",
    ).join("");
    const { markdown } = await extractMarkdown(
      page(
        `<div class="c1"><div class="c2"><div class="tabs">${product}</div>` +
          `<div class="box"><ul>${links}</ul></div></div></div><div class="legal">${legal}</div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Product 0:");
    expect(markdown).toContain("Product 5:");
  });

  it("does not take a site notice above the headline for the article's lead", async () => {
    const notice =
      "Our offices will be closed on Monday for the public holiday, and orders will ship again on Tuesday.";
    const { markdown } = await extractMarkdown(
      page(
        `<div class="wrap"><div class="notice"><p>${notice}</p></div><div class="story"><h1>Budget review</h1>` +
          `<div class="lower"><div class="rich">${paragraphs(6, "Body")}</div></div></div></div>`,
      ),
      URL,
    );
    expect(markdown).toContain("Body 5:");
    expect(markdown).not.toContain("Our offices will be closed");
  });

  it("keeps a link inside a sentence even when its class names a decoration ('popup')", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>I am a <a class="popup" href="#n1">rather elderly</a> man, and ${PROSE}</p><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).toContain("I am a rather elderly man");
  });

  it("gives a repeated image alt text once (a lazy loader's or a gallery's copies)", async () => {
    const img = '<img src="a.jpg" alt="Illustration for the article on budgets">';
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><p>${img}</p><p>${PROSE}</p><p>${img}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown.split("Illustration for the article on budgets").length).toBe(2);
  });

  it("drops a heading with nothing after it (a dropped widget's title), and keeps one that is a sentence", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><p>${PROSE}</p><h4>Jetzt teilen!</h4></article>`),
      URL,
    );
    expect(markdown).not.toContain("Jetzt teilen");
    const quoted = await extractMarkdown(
      page(`<article><p>${PROSE}</p><p>${PROSE}</p><h4>The vote was never held.</h4></article>`),
      URL,
    );
    expect(quoted.markdown).toContain("The vote was never held.");
  });

  it("drops a date line between the headline and the lead, and keeps a list written as short lines", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><h2>Budget talks</h2><p>23.10.2018</p><p>${PROSE}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).toContain("## Budget talks");
    expect(markdown).not.toContain("23.10.2018");
    const lines = ["pumpkin", "400 grams", "onion", "3 pieces", "walnuts"].map((t) => `<p>${t}</p>`).join("");
    const recipe = await extractMarkdown(
      page(`<article><h2>Ingredients</h2>${lines}<p>${PROSE}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(recipe.markdown).toContain("400 grams");
  });

  it("drops a time stamp line at the end of the content whatever its punctuation", async () => {
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p><p>${PROSE}</p><p>Publiziert: 03.04.2020, 12:35</p></article>`),
      URL,
    );
    expect(markdown).not.toContain("03.04.2020");
  });

  it("drops the links of the edge lines it drops, and keeps the article's own", async () => {
    const { markdown, links } = await extractMarkdown(
      page(
        `<article><p>${PROSE} <a href="/budget">The budget</a> is online.</p><p>${PROSE}</p>` +
          '<p><a href="/news">Alle Meldungen im Überblick</a></p></article>',
      ),
      URL,
    );
    expect(markdown).not.toContain("Alle Meldungen");
    expect(links).toEqual(["https://example.org/budget"]);
  });

  it("drops the picture credit from an image's alt text and keeps its description", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><p><img src="a.jpg" alt="(Credit: Nasa)"></p><p>${PROSE}</p>` +
          `<p><img src="b.jpg" alt="The launch pad at dawn (Credit: iStock)"></p><p>${PROSE}</p>` +
          `<p><img src="c.jpg" alt="Supporters cheer on election night in New York. / AFP / JIM WATSON (Photo credit should read JIM WATSON/AFP/Getty Images)"></p><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).not.toMatch(/Credit|AFP/i);
    expect(markdown).toContain("The launch pad at dawn");
    expect(markdown).toContain("Supporters cheer on election night in New York.");
  });

  it("drops a media player's interface: controls, caption settings and 'up next' are not the page", async () => {
    const player =
      '<div class="video-js vjs-fluid"><div class="vjs-control-bar"><span>Play</span><span>Mute</span></div>' +
      '<div class="vjs-text-track-settings"><p>Beginning of dialog window. Escape will cancel and close the window.</p>' +
      "<ul><li>Proportional Sans-Serif</li><li>Monospace Sans-Serif</li><li>Casual</li></ul></div>" +
      '<div class="vjs-up-next"><p>Up next: the committee explains its timeline in a short interview.</p></div></div>';
    const { markdown } = await extractMarkdown(
      page(`<article><p>${PROSE}</p>${player}<p>Then: ${PROSE}</p><p>${PROSE}</p></article>`),
      URL,
    );
    expect(markdown).not.toMatch(/dialog window|Sans-Serif|Up next|Mute/);
    expect(markdown).toContain("Then: The committee met");
  });

  it("keeps a list of links nested under an item with words of its own (a release note's bug links)", async () => {
    const bugs = [
      "Fullscreen window is affected by switching video source",
      "Add telemetry for tracking usage",
    ]
      .map((t, i) => `<li><a href="/bug/${i}">Bug ${i} – ${t}</a></li>`)
      .join("");
    const menu = ["Overview", "Downloads", "Support"]
      .map((t) => `<li><a href="/${t}">${t}</a></li>`)
      .join("");
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><ul><li>Picture-in-Picture fixes landed this week:<ul>${bugs}</ul></li>` +
          `<li><a href="/products">Products</a><ul>${menu}</ul></li></ul><p>${PROSE}</p></article>`,
      ),
      URL,
    );
    expect(markdown).toContain("Bug 1 – Add telemetry for tracking usage");
    expect(markdown).not.toContain("Downloads");
  });

  describe("a stream of story teasers beside an article", () => {
    const article = `<section class="story">${paragraphs(10, "Story")}</section>`;
    const summary = "A short summary of another story, written to draw the reader on to it, with one detail.";
    const teasers = (linked: boolean) =>
      Array.from({ length: 8 }, (_, i) => {
        const title = linked ? `<a href="/story-${i}">Another story number ${i}</a>` : `Step number ${i}`;
        return `<li class="stream-item"><h3>${title}</h3><p>${summary} ${summary} ${summary} ${summary}</p></li>`;
      }).join("");

    // A stream the page's script fills, a few wrappers below the column it shares with the article.
    const applet = (items: string) =>
      `<div class="remote"><div class="applet"><div class="app-body"><div class="app-main"><ul class="stream">${items}</ul></div></div></div></div>`;

    it("is dropped: more stories, not more of this one", async () => {
      const { markdown } = await extractMarkdown(
        page(`<div id="main">${article}${applet(teasers(true))}</div>`),
        URL,
      );
      expect(markdown).toContain("Story 9: The committee met");
      expect(markdown).not.toContain("Another story number");
      expect(markdown).not.toContain("A short summary");
    });

    it("stays when its headings link nowhere (a recipe's steps, a guide's parts)", async () => {
      const { markdown } = await extractMarkdown(
        page(`<div id="main">${article}${applet(teasers(false))}</div>`),
        URL,
      );
      expect(markdown).toContain("Step number 7");
    });

    it("stays when it is the page's listing under a short introduction (a category page)", async () => {
      const { markdown } = await extractMarkdown(
        page(
          `<div id="main"><section class="intro"><p>${PROSE}</p></section><ul class="stream">${teasers(true)}</ul></div>`,
        ),
        URL,
      );
      expect(markdown).toContain("Another story number 7");
    });

    it("stays when it follows the article's introduction in the same parent (a listicle's items)", async () => {
      const intro = Array.from({ length: 4 }, (_, i) => `<p>Intro ${i}: ${PROSE.slice(0, 150)}</p>`).join("");
      const picks = Array.from(
        { length: 6 },
        (_, i) =>
          `<li class="pick"><h2><a href="https://shop.example/p${i}">${i + 1}. Acme Blender Model ${i}</a></h2>` +
          `<p>Pick ${i}: quiet and strong, it crushes ice in seconds and is easy to clean, for a small kitchen.</p></li>`,
      ).join("");
      const { markdown } = await extractMarkdown(
        page(
          `<div class="wrap"><h1>The six best blenders</h1><div class="post-content">${intro}</div><ol class="picks">${picks}</ol><p>Updated daily.</p></div>`,
        ),
        URL,
      );
      expect(markdown).toContain("Intro 3");
      expect(markdown).toContain("Pick 5: quiet and strong");
    });
  });

  it("keeps a heading whose words sit in a block of their own inside it (GitBook's <h3><div>)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><article><p>${PROSE}</p><h3 id="install"><div><a href="#install"></a></div>` +
          `<div class="flex-1">Installing the tools</div></h3><p>${PROSE}</p></article></main>`,
      ),
      URL,
    );
    expect(markdown).toContain("### Installing the tools");
  });

  it("drops a block marked nocontent (Google's convention for what is not the page's content)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><article><p>${PROSE}</p><p>${PROSE}</p>` +
          '<div class="devsite-content-footer nocontent"><p>Except as otherwise noted, the content of this page is ' +
          "licensed under the Creative Commons Attribution 4.0 License.</p></div></article></main>",
      ),
      URL,
    );
    expect(markdown).toContain("The committee met");
    expect(markdown).not.toContain("Creative Commons");
  });

  it("keeps a documentation section's list of references to other pages", async () => {
    const refs = ["String", "List", "Set"]
      .map((t) => `<li><a href="/commands/${t}">Redis ${t} command reference</a></li>`)
      .join("");
    const { markdown } = await extractMarkdown(
      page(
        `<main><article><h1>Data types</h1><p>${PROSE}</p><h2>Strings</h2><p>${PROSE}</p>` +
          `<ul>${refs}</ul><h2>Lists</h2><p>${PROSE}</p></article></main>`,
      ),
      "https://redis.example.org/docs/latest/develop/data-types/",
    );
    expect(markdown).toContain("- Redis List command reference");
  });

  it("keeps a documentation tab pane of links (a language's setup steps)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><article><p>${PROSE}</p><div role="tablist"><button role="tab" aria-controls="go">Go</button></div>` +
          '<div id="go" role="tabpanel" hidden><ul><li><a href="https://go.dev/doc/install">Install Go</a></li></ul></div>' +
          `<p>${PROSE}</p></article></main>`,
      ),
      "https://example.org/docs/messaging/quickstart",
    );
    expect(markdown).toContain("Install Go");
  });
});

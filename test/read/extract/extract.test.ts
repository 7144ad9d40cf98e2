import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const PROSE =
  "The committee met on Tuesday to review the proposal, which had been discussed for months, and agreed on a timeline. " +
  "Members noted that the budget, the staffing plan, and the schedule all needed more work before the final vote.";

function page(body: string, head = ""): string {
  return `<!doctype html><html lang="en"><head><title>Test page</title>${head}</head><body>${body}</body></html>`;
}

function article(inner: string): string {
  return page(`<article><h1>Budget review</h1><p>${PROSE}</p>${inner}<p>${PROSE}</p></article>`);
}

describe("extractMarkdown: structure", () => {
  it("renders a data table as a GFM table", async () => {
    const { markdown } = await extractMarkdown(
      article(
        "<table><thead><tr><th>Item</th><th>Cost</th></tr></thead><tbody><tr><td>Staff</td><td>120 | 130</td></tr><tr><td>Rent</td><td>40</td></tr></tbody></table>",
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("| Item | Cost |\n| --- | --- |\n| Staff | 120 \\| 130 |\n| Rent | 40 |");
  });

  it("pads short rows and spans so every row has the table's width", async () => {
    const { markdown } = await extractMarkdown(
      article(
        "<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td colspan=2>wide</td><td>x</td></tr><tr><td>1</td></tr></table>",
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("| A | B | C |\n| --- | --- | --- |\n| wide |  | x |\n| 1 |  |  |");
  });

  it("reads a layout table as its cells' text, not as a grid", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<table><tr><td><h2>Section</h2><p>${PROSE}</p><ul><li>one</li><li>two</li></ul></td></tr></table>`,
      ),
      "https://example.org/a",
    );
    expect(markdown).not.toContain("| ---");
    expect(markdown).toContain("## Section");
    expect(markdown).toContain("- one\n- two");
  });

  it("fences code blocks with the language named by their class", async () => {
    for (const [cls, lang] of [
      ['class="language-python"', "python"],
      ['class="lang-rust"', "rust"],
      ['class="highlight-go"', "go"],
    ]) {
      const { markdown } = await extractMarkdown(
        article(`<pre><code ${cls}>def f(x):\n    return x * 2\n</code></pre>`),
        "https://example.org/a",
      );
      expect(markdown).toContain(`\`\`\`${lang}\ndef f(x):\n    return x * 2\n\`\`\``);
    }
  });

  it("takes the language from a wrapping highlight div and keeps <br> and per-line markup as newlines", async () => {
    const { markdown } = await extractMarkdown(
      article(
        '<div class="highlight-js"><pre>let a = 1;<br>let b = 2;</pre></div><pre><div>x = 1</div><div>y = 2</div></pre>',
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("```js\nlet a = 1;\nlet b = 2;\n```");
    expect(markdown).toContain("```\nx = 1\ny = 2\n```");
  });

  it("uses a longer fence when the code itself contains backticks", async () => {
    const { markdown } = await extractMarkdown(
      article("<pre>echo ```quoted```</pre>"),
      "https://example.org/a",
    );
    expect(markdown).toContain("````\necho ```quoted```\n````");
  });

  it("keeps headings, nested lists, ordered lists and blockquotes", async () => {
    const { markdown } = await extractMarkdown(
      article(
        '<h2>Steps</h2><ol start="3"><li>Mix</li><li>Bake<ul><li>at 180 degrees</li></ul></li></ol><blockquote><p>First line.</p><p>Second line.</p></blockquote>',
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("## Steps");
    expect(markdown).toContain("3. Mix\n4. Bake\n   - at 180 degrees");
    expect(markdown).toContain("> First line.\n>\n> Second line.");
  });

  it("keeps meaningful image alt text and drops file names", async () => {
    const { markdown } = await extractMarkdown(
      article(
        '<p><img alt="Chart of monthly rainfall in Oslo"> <img alt="IMG_2041.jpg"> <img alt="logo"></p>',
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("Chart of monthly rainfall in Oslo");
    expect(markdown).not.toContain("IMG_2041");
    expect(markdown).not.toMatch(/\blogo\b/);
  });

  it("keeps alt text only where it describes a picture: not a name, a linked teaser's, or a captioned figure's", async () => {
    const { markdown } = await extractMarkdown(
      article(
        '<p><img alt="Annette Henkel"> <a href="/other-story"><img alt="Crowds gather outside the old town hall"></a></p>' +
          '<figure><img alt="Striking members of the union on a picket line"><figcaption>Members of the union on strike in March.</figcaption></figure>' +
          '<figure><img alt="A map of the flooded districts along the river"></figure>',
      ),
      "https://example.org/a",
    );
    expect(markdown).not.toContain("Annette Henkel");
    expect(markdown).not.toContain("Crowds gather");
    expect(markdown).not.toContain("picket line");
    expect(markdown).toContain("Members of the union on strike in March.");
    expect(markdown).toContain("A map of the flooded districts along the river");
  });

  it("counts words of scripts written without spaces: a Japanese description stays, a short label goes", async () => {
    const { markdown } = await extractMarkdown(
      article('<p><img alt="夕暮れの東京タワーと富士山の眺め"> <img alt="東京タワー"></p>'),
      "https://example.jp/a",
    );
    expect(markdown).toContain("夕暮れの東京タワーと富士山の眺め");
    expect(markdown.replace("夕暮れの東京タワーと富士山の眺め", "")).not.toContain("東京タワー");
  });
});

describe("extractMarkdown: hidden text never reaches the output", () => {
  const hiders: [string, string][] = [
    ["hidden attribute", "<div hidden>SECRET-INSTRUCTION</div>"],
    ["aria-hidden", '<div aria-hidden="true">SECRET-INSTRUCTION</div>'],
    ["display:none", '<p style="color:red; display: none">SECRET-INSTRUCTION</p>'],
    ["visibility:hidden", '<span style="visibility:hidden">SECRET-INSTRUCTION</span>'],
    ["template", "<template><p>SECRET-INSTRUCTION</p></template>"],
    ["noscript", "<noscript><p>SECRET-INSTRUCTION</p></noscript>"],
    ["off-screen", '<p style="position:absolute;left:-9999px">SECRET-INSTRUCTION</p>'],
    ["zero font size", '<p style="font-size:0">SECRET-INSTRUCTION</p>'],
    ["script", "<script>var x = 'SECRET-INSTRUCTION';</script>"],
    ["style", "<style>.a::after{content:'SECRET-INSTRUCTION'}</style>"],
  ];
  for (const [how, html] of hiders) {
    it(`drops text hidden by ${how}`, async () => {
      const { markdown } = await extractMarkdown(article(html), "https://example.org/a");
      expect(markdown).toContain("The committee met");
      expect(markdown).not.toContain("SECRET-INSTRUCTION");
    });
  }

  it("drops hidden text even when it sits inside the page's only content wrapper", async () => {
    const html = page(
      `<div class="header-wrapper"><p>${PROSE}</p><div style="display:none">SECRET-INSTRUCTION</div><p>${PROSE}</p></div>`,
    );
    const { markdown } = await extractMarkdown(html, "https://example.org/a");
    expect(markdown).toContain("The committee met");
    expect(markdown).not.toContain("SECRET-INSTRUCTION");
  });
});

describe("extractMarkdown: page chrome", () => {
  it("removes navigation, header, footer, aside, forms, cookie banners, share bars and comments", async () => {
    const html = page(`
      <header class="site-header"><a href="/">Home</a> <a href="/news">News</a></header>
      <nav><ul><li><a href="/a">Menu entry</a></li></ul></nav>
      <div id="cookie-notice"><p>We use cookies to improve your experience. Accept all?</p></div>
      <main><article><h1>Budget review</h1><p>${PROSE}</p>
        <div class="share-buttons"><a href="https://twitter.com/share">Share on Twitter</a></div>
        <p>${PROSE}</p></article>
        <section id="comments" class="comments-area"><h3>3 comments</h3><p>Great article, thanks for writing it up so clearly!</p></section>
      </main>
      <aside><p>Sidebar teaser text</p></aside>
      <form action="/subscribe"><label>Email</label><input name="e"><button>Subscribe to the newsletter</button></form>
      <footer><p>Copyright 2024 Example Corp. All rights reserved.</p></footer>`);
    const { markdown } = await extractMarkdown(html, "https://example.org/a");
    expect(markdown).toContain("The committee met");
    for (const junk of [
      "Menu entry",
      "cookies",
      "Share on Twitter",
      "Great article",
      "Sidebar teaser",
      "newsletter",
      "Copyright",
      "News",
    ])
      expect(markdown).not.toContain(junk);
  });

  it("drops furniture lines and teaser blocks under 'more on this' headings", async () => {
    const { markdown } = await extractMarkdown(
      article(
        '<p>Foto: Max Muster</p><p>© 2024 Example Media</p><h3>Mehr zum Thema</h3><ul><li><a href="/x">Other story one</a></li><li><a href="/y">Other story two</a></li></ul>',
      ),
      "https://example.org/a",
    );
    expect(markdown).toContain("The committee met");
    for (const junk of ["Foto:", "© 2024", "Mehr zum Thema", "Other story"])
      expect(markdown).not.toContain(junk);
  });

  it("keeps documentation sections whose anchors contain chrome words", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<div class="body"><p>${PROSE}</p><div class="section" id="sharing-with-a-single-developer"><h2>Sharing with a single developer<a class="headerlink" href="#s">¶</a></h2><p>${PROSE}</p></div></div>`,
      ),
      "https://docs.example.org/evolve",
    );
    expect(markdown).toContain("## Sharing with a single developer\n");
  });

  it("keeps Adobe AEM's text components (cmp-text) but drops a consent platform's banner (cmp-banner)", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<main><div class="intro"><p>${PROSE}</p><p>${PROSE}</p></div>` +
          [1, 2, 3]
            .map(
              (i) =>
                `<div class="cmp-title"><h2>Part ${i}</h2></div><div class="cmp-text"><p>Heat pumps ${i}: ${PROSE}</p></div>`,
            )
            .join("") +
          '<div class="cmp-banner"><p>We and our partners store and access information on your device.</p></div></main>',
      ),
      "https://www.example.de/heat-pumps",
    );
    expect(markdown).toContain("Heat pumps 3: The committee met");
    expect(markdown).not.toContain("our partners store");
  });

  it("keeps a recipe's meta line (servings, times): on a recipe it is content", async () => {
    const { markdown } = await extractMarkdown(
      page(
        `<article><p>${PROSE}</p><p class="recipe-header__meta"><span>Serves 12</span> <span>Baking time about 40 minutes</span></p>` +
          `<p>${PROSE}</p><p>${PROSE}</p></article>`,
      ),
      "https://www.example.de/recipe",
    );
    expect(markdown).toContain("Baking time about 40 minutes");
  });

  it("keeps an article's own header (headline and standfirst) outside <article>, and drops the site's header", async () => {
    const standfirst =
      "The council agreed a new budget after a long night, and the opposition says it will take the plan to court.";
    const { markdown } = await extractMarkdown(
      page(
        '<header class="site-header"><h1><a href="/">The Daily Example, news since 1901</a></h1><p>Your local paper for the county and the towns around it since 1901</p></header>' +
          `<div class="wrap"><header class="m-intro-header"><h1>Council agrees budget after a long night</h1><p class="lead">${standfirst}</p></header>` +
          `<div class="body"><p>${PROSE}</p><p>${PROSE}</p><p>${PROSE}</p></div></div>`,
      ),
      "https://news.example/budget",
    );
    expect(markdown).toContain("The council agreed a new budget after a long night");
    expect(markdown).not.toContain("Your local paper");
  });

  it("keeps a forum thread whose posts are named like comments", async () => {
    const posts = Array.from(
      { length: 6 },
      (_, i) => `<div class="comment"><p>Reply ${i}: ${PROSE}</p></div>`,
    ).join("");
    const { markdown } = await extractMarkdown(
      page(`<div class="comments">${posts}</div>`),
      "https://forum.example/t/1",
    );
    for (let i = 0; i < 6; i++) expect(markdown).toContain(`Reply ${i}:`);
  });

  it("falls back to the whole cleaned page when no container holds most of the prose", async () => {
    const cards = Array.from(
      { length: 4 },
      (_, i) => `<div class="card"><h3>Model ${i}</h3><p>Spec ${i}: ${PROSE}</p></div>`,
    ).join("<div class='spacer'></div>");
    const { markdown } = await extractMarkdown(
      page(`<div class="grid">${cards}</div>`),
      "https://shop.example/",
    );
    for (let i = 0; i < 4; i++) expect(markdown).toContain(`Spec ${i}:`);
  });
});

describe("extractMarkdown: links", () => {
  it("keeps anchor words in the prose and lists resolved targets once, in page order", async () => {
    const html = article(
      '<p>See <a href="/docs/intro">the introduction</a>, <a href="https://other.example/x#part">a source</a>, ' +
        '<a href="/docs/intro#again">the introduction again</a>, <a href="#top">top</a>, ' +
        '<a href="mailto:a@b.c">mail</a> and <a href="javascript:void(0)">nothing</a>.</p>',
    );
    const { markdown, links } = await extractMarkdown(html, "https://example.org/blog/post");
    expect(markdown).toContain(
      "See the introduction, a source, the introduction again, top, mail and nothing.",
    );
    expect(markdown).not.toContain("](");
    expect(links).toEqual(["https://example.org/docs/intro", "https://other.example/x#part"]);
  });

  it("resolves relative links against <base href>", async () => {
    const html = page(
      `<article><p>${PROSE} Read <a href="guide.html">the guide</a> and <a href="../up.html">the index</a>.</p></article>`,
      '<base href="https://cdn.example.net/docs/v2/">',
    );
    const { links } = await extractMarkdown(html, "https://example.org/page");
    expect(links).toEqual([
      "https://cdn.example.net/docs/v2/guide.html",
      "https://cdn.example.net/docs/up.html",
    ]);
  });

  it("does not list links from removed chrome", async () => {
    const html = page(
      `<nav><a href="/nav-only">Nav</a></nav><article><p>${PROSE} <a href="/in-text">here</a></p></article>`,
    );
    const { links } = await extractMarkdown(html, "https://example.org/");
    expect(links).toEqual(["https://example.org/in-text"]);
  });
});

describe("extractMarkdown: metadata", () => {
  it("reads title, byline, date, language and site name from meta tags", async () => {
    const head =
      '<meta property="og:title" content="The Real Title"><meta name="author" content="Ada Lovelace">' +
      '<meta property="article:published_time" content="2024-03-01T10:00:00Z"><meta property="og:site_name" content="Example News">';
    const meta = await extractMarkdown(
      page(`<article><p>${PROSE}</p></article>`, head),
      "https://example.org/a",
    );
    expect(meta).toMatchObject({
      title: "The Real Title",
      byline: "Ada Lovelace",
      published: "2024-03-01T10:00:00Z",
      lang: "en",
      siteName: "Example News",
    });
  });

  it("falls back to JSON-LD, then to <time>", async () => {
    const ld = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", name: "Graph Site" },
        {
          "@type": "NewsArticle",
          headline: "LD Headline",
          author: [{ name: "Grace Hopper" }],
          datePublished: "2023-05-06",
        },
      ],
    };
    const head = `<script type="application/ld+json">${JSON.stringify(ld)}</script>`;
    const meta = await extractMarkdown(
      page(`<article><p>${PROSE}</p></article>`, head),
      "https://example.org/a",
    );
    expect(meta).toMatchObject({
      title: "LD Headline",
      byline: "Grace Hopper",
      published: "2023-05-06",
      siteName: "Graph Site",
    });

    const timeOnly = await extractMarkdown(
      page(`<article><time datetime="2022-01-02">2 Jan</time><p>${PROSE}</p></article>`),
      "https://example.org/a",
    );
    expect(timeOnly.published).toBe("2022-01-02");
    expect(timeOnly.title).toBe("Test page");
  });
});

describe("extractMarkdown: languages", () => {
  it("reads ruby text as its words: furigana and fallback brackets are not glued onto the word they annotate", async () => {
    const ruby = (base: string, reading: string) =>
      `<ruby>${base}<rp>(</rp><rt>${reading}</rt><rp>)</rp></ruby>`;
    const line = `${ruby("子", "こ")}どもへの${ruby("虐待", "ぎゃくたい")}をなくすための${ruby("法律", "ほうりつ")}ができて、親が子どもを教育するために、たたいたりすることを禁止することになりました。`;
    const { markdown } = await extractMarkdown(
      `<html lang="ja"><body><article><h1>法律ができる</h1><p>${line}</p><p>${line}</p></article></body></html>`,
      "https://example.jp/news/1",
    );
    expect(markdown).toContain("子どもへの虐待をなくすための法律ができて、");
    expect(markdown).not.toContain("ぎゃくたい");
    expect(markdown).not.toContain("(");
  });

  it("extracts right-to-left and CJK pages with their language and punctuation", async () => {
    const arabic =
      "اجتمعت اللجنة يوم الثلاثاء لمراجعة الاقتراح، الذي نوقش لعدة أشهر، واتفقت على جدول زمني واضح للتنفيذ. " +
      "وأشار الأعضاء إلى أن الميزانية، وخطة التوظيف، والجدول الزمني تحتاج جميعها إلى مزيد من العمل.";
    const chinese =
      "委员会周二开会审查了该提案，该提案已讨论数月，并商定了时间表。成员们指出，预算、人员配置计划和时间表都需要在最终投票前做更多工作。";
    const ar = await extractMarkdown(
      `<html lang="ar" dir="rtl"><body><nav><a href="/">الرئيسية</a></nav><article><h1>مراجعة الميزانية</h1><p>${arabic}</p><p>${arabic}</p></article></body></html>`,
      "https://example.org/ar",
    );
    expect(ar.lang).toBe("ar");
    expect(ar.markdown).toContain("# مراجعة الميزانية");
    expect(ar.markdown).toContain("اجتمعت اللجنة");
    expect(ar.markdown).not.toContain("الرئيسية");
    const zh = await extractMarkdown(
      `<html lang="zh-CN"><body><article><h1>预算审查</h1><p>${chinese}</p><p>${chinese}</p></article><footer>版权所有</footer></body></html>`,
      "https://example.org/zh",
    );
    expect(zh.lang).toBe("zh-CN");
    expect(zh.markdown).toContain("委员会周二开会审查了该提案，");
    expect(zh.markdown).not.toContain("版权所有");
  });

  it("survives pathologically deep nesting and still drops hidden text there", async () => {
    const deep = `${"<div>".repeat(20000)}<p>${PROSE}</p><span hidden>SECRET-INSTRUCTION</span>`;
    const { markdown } = await extractMarkdown(page(deep), "https://example.org/deep");
    expect(markdown).toContain("The committee met");
    expect(markdown).not.toContain("SECRET-INSTRUCTION");
  });

  it("returns empty markdown, not an error, for an empty document", async () => {
    await expect(extractMarkdown("", "https://example.org/")).resolves.toMatchObject({
      markdown: "",
      links: [],
    });
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// One synthetic page per text-level boilerplate rule; each test fails without its rule, and each rule has a
// companion test showing that an ordinary article sentence with the same words in another role stays.

const PROSE =
  "The committee met on Tuesday to review the proposal, which had been discussed for months, and agreed on a timeline. " +
  "Members noted that the budget, the staffing plan, and the schedule all needed more work before the final vote.";

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Edges</title></head><body>${body}</body></html>`;
}

function article(...inner: string[]): string {
  return page(
    `<article><p>${PROSE}</p>${inner.join("")}<p>Second part: ${PROSE}</p><p>${PROSE}</p></article>`,
  );
}

// Site notices (cookies, logins, widgets) go only outside the article's prose or with a control: after the
// last paragraph here.
function articleEnd(...inner: string[]): string {
  return page(`<article><p>${PROSE}</p><p>Second part: ${PROSE}</p>${inner.join("")}</article>`);
}

const URL = "https://example.org/a";

async function md(html: string): Promise<string> {
  return (await extractMarkdown(html, URL)).markdown;
}

describe("extractMarkdown: appeals to the reader", () => {
  it("drops a support appeal inside the content", async () => {
    const out = await md(
      article(
        "<p>If you enjoyed reading this post – would you consider supporting our work? Just click here. Thanks!</p>",
        "<p>Wenn Ihnen unser Artikel gefallen hat: Unterstützen Sie diese Form des Journalismus.</p>",
      ),
    );
    expect(out).not.toContain("supporting our work");
    expect(out).not.toContain("Unterstützen Sie diese Form");
    expect(out).toContain("Second part:");
  });

  it("drops a paywall notice", async () => {
    const out = await md(
      article(
        "<p>To view the full story, please subscribe to The Daily. You can choose an annual subscription.</p>",
        "<p>If you’re seeing this message but you’re already a subscriber, you can log in for immediate access.</p>",
      ),
    );
    expect(out).not.toContain("To view the full story");
    expect(out).not.toContain("already a subscriber");
  });

  it("drops a newsletter sign-up line", async () => {
    const out = await md(
      article(
        "<p>Lust auf mehr? Lass dir die besten Storys jede Woche in deinen Posteingang liefern. Melde dich hier für unseren Newsletter an!</p>",
        "<p>Never miss the latest news by signing up to our newsletter today!</p>",
      ),
    );
    expect(out).not.toContain("Posteingang");
    expect(out).not.toContain("signing up to our newsletter");
  });

  it("drops only the appeal of a box that also holds article text, below inline wrappers", async () => {
    const out = await md(
      article(
        `<div class="box"><span><p>Gefällt dir unser Klettermagazin? Wir haben keine Bezahlschranke.</p><p>Box prose: ${PROSE}</p></span></div>`,
      ),
    );
    expect(out).not.toContain("Klettermagazin");
    expect(out).toContain("Box prose:");
    expect(out).toContain("Second part:");
  });

  it("drops an appeal that is a whole line (between <br>s) of a long paragraph, not the rest", async () => {
    const out = await md(
      article(
        `<p><strong>Gefällt dir unser Klettermagazin? Wir haben keine Bezahlschranke.</strong><br><br>Long prose: ${PROSE} ${PROSE}</p>`,
      ),
    );
    expect(out).not.toContain("Klettermagazin");
    expect(out).toContain("Long prose:");
  });

  it("keeps article sentences that report on support, membership and newsletters", async () => {
    const sentences = [
      "The foundation said it would support independent journalism and become a member of the press council.",
      "Thousands of readers sign up for the newsletter each week, the publisher said, and many were already members.",
      "She asked him to read the full story aloud before the vote.",
      "If you liked this film, the sequel will not disappoint: it is darker and funnier.",
      "Der Verlag teilte mit, viele Leser würden den Newsletter abonnieren, sobald er erscheint.",
      "Herr Meier, Sie unterstützen unsere Forderung nach einem eigenen Ministerium?",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: notices about the page's machinery", () => {
  it("drops cookie, consent, login and closed-comments notices after the article's prose", async () => {
    const out = await md(
      articleEnd(
        "<p>Datenschutz &amp; Cookies: Diese Website verwendet Cookies. Wenn du die Website weiterhin nutzt, stimmst du zu.</p>",
        "<p>Wir respektieren deine Privatsphäre und stellen deshalb ohne dein Einverständnis keine Verbindung zu Twitter her.</p>",
        "<p>Sie sind aktuell nicht eingeloggt.</p>",
        "<p>Comments are closed.</p>",
        "<h3>Sie müssen sich einloggen, um sich an einer Diskussion beteiligen zu können.</h3>",
        "<p>You must be logged in to post a comment.</p>",
        "<p>Vous devez être connecté pour publier un commentaire.</p>",
      ),
    );
    expect(out).not.toContain("einloggen");
    expect(out).not.toContain("logged in to post");
    expect(out).not.toContain("connecté");
    expect(out).not.toContain("Cookies");
    expect(out).not.toContain("Einverständnis");
    expect(out).not.toContain("eingeloggt");
    expect(out).not.toContain("Comments are closed");
  });

  it("keeps article sentences about cookies, consent and logins", async () => {
    const sentences = [
      "Regulators found that many shops use cookies without asking, and the fines were raised.",
      "Der Arzt handelte ohne das Einverständnis der Patientin, urteilte das Gericht.",
      "The attackers were not logged in when the data left the server, investigators said.",
      "Wer mitreden will, muss sich einloggen: Sie müssen sich einloggen, um abzustimmen, erklärte der Verein.",
      "Members said you need to be logged in to post on the old board, which kept spammers out for years.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: disclosures about the page", () => {
  it("drops affiliate and opinion disclaimers", async () => {
    const out = await md(
      article(
        "<p>We recommend the best products through an independent review process, and advertisers do not influence our picks.</p>",
        "<p>Les opinions exprimées dans les blogs n'engagent que leurs auteurs.</p>",
        "<p>Wenn du über diese Links einkaufst, erhalten wir eine kleine Provision.</p>",
      ),
    );
    expect(out).not.toContain("advertisers do not influence");
    expect(out).not.toContain("engagent");
    expect(out).not.toContain("Provision");
  });

  it("keeps article sentences about commissions and opinions", async () => {
    const sentences = [
      "The agents earn a commission on every sale, the report found, and advertisers pay for placement.",
      "Die Opposition kritisierte, dass Makler eine Provision verlangen, die der Mieter zahlt.",
      "The opinions expressed at the hearing varied widely, from support to outright rejection.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: teaser headings in more wordings", () => {
  it("drops a 'Verwandte Beiträge' / 'Más noticias' teaser block and keeps the prose after it", async () => {
    const out = await md(
      article(
        '<h2>Verwandte Beiträge</h2><ul><li><a href="/x">Eine andere Geschichte</a></li></ul>',
        '<p><strong>Más noticias de Colombia</strong></p><p><a href="/y">Otra noticia distinta</a></p>',
      ),
    );
    expect(out).not.toContain("Verwandte Beiträge");
    expect(out).not.toContain("Eine andere Geschichte");
    expect(out).not.toContain("Otra noticia distinta");
    expect(out).toContain("Second part:");
  });

  it("drops a 'Czytaj też' teaser block (a heading ending in a non-ASCII letter)", async () => {
    const out = await md(
      article('<p><strong>Czytaj też</strong></p><p><a href="/p">Inny artykuł o czymś</a></p>'),
    );
    expect(out).not.toContain("Inny artykuł");
    expect(out).toContain("Second part:");
  });

  it("keeps a sentence that opens with the same words", async () => {
    const sentence = "Latest news from the front arrived on Tuesday.";
    const out = await md(article(`<p>${sentence}</p>`, '<p><a href="/z">A linked note</a></p>'));
    expect(out).toContain(sentence);
    expect(out).toContain("A linked note");
  });
});

describe("extractMarkdown: byline and date lines after the lead", () => {
  const LEAD =
    "<p>Follow these expert tips for hydrangea care, whether in a vase or in the ground, for blooms all season.</p>";

  it("drops a byline, a date line and a reading time between the lead and the body", async () => {
    const out = await md(
      page(
        `<article>${LEAD}<p>By Sarah Yang</p><p>Pubblicato il 19 Febbraio 2020 Ultima modifica 19 Febbraio 2020 12:02</p>` +
          `<p>Feb 8, 2020 5 min read</p><p>${PROSE}</p><p>Second part: ${PROSE}</p></article>`,
      ),
    );
    expect(out).toContain("Follow these expert tips");
    expect(out).not.toContain("Sarah Yang");
    expect(out).not.toContain("Pubblicato");
    expect(out).not.toContain("min read");
  });

  it("drops a French publication line (a word boundary after an accented letter)", async () => {
    const out = await md(
      page(
        `<article>${LEAD}<p>Publié le 3 mai 2021 à 10h00</p><p>${PROSE}</p><p>Second part: ${PROSE}</p></article>`,
      ),
    );
    expect(out).not.toContain("Publié");
  });

  it("keeps sentences and labelled dates that look like bylines or date lines", async () => {
    const lines = [
      "By the river, the town grew.",
      "Von Anfang an war klar, dass der Plan scheitern würde.",
      "Termin: 21.02.2020, 19 Uhr",
    ];
    const out = await md(
      page(`<article>${LEAD}${lines.map((s) => `<p>${s}</p>`).join("")}<p>${PROSE}</p></article>`),
    );
    for (const s of lines) expect(out).toContain(s);
  });
});

describe("extractMarkdown: furniture lines in parentheses", () => {
  it("drops '(Alle Angaben ohne Gewähr)' like its unbracketed form", async () => {
    const out = await md(article("<p>(Alle Angaben ohne Gewähr)</p>"));
    expect(out).not.toContain("Angaben ohne Gewähr");
    expect(out).toContain("Second part:");
  });

  it("keeps a bracketed aside that is a sentence of the article", async () => {
    const aside = "(Teilen wollten die Erben das Haus nie, sagte der Anwalt, es ging um Geld.)";
    const out = await md(article(`<p>${aside}</p>`));
    expect(out).toContain(aside);
  });
});

describe("extractMarkdown: login and presence widgets", () => {
  it("drops a login box (with its link, inside the content) and a visitors-online counter (after it)", async () => {
    const inside = await md(
      article('<div>Nur für Mitglieder <a href="/pw">Passwort vergessen?</a> Neu anmelden!</div>'),
    );
    expect(inside).not.toContain("Passwort vergessen");
    expect(inside).toContain("Second part:");
    const out = await md(
      articleEnd(
        "<div>Nur für Mitglieder Passwort vergessen? Neu anmelden!</div>",
        "<div>13 Besucher sind online</div>",
      ),
    );
    expect(out).not.toContain("Passwort vergessen");
    expect(out).not.toContain("Besucher sind online");
  });

  it("keeps sentences about passwords and visitors", async () => {
    const sentences = [
      "Wer sein Passwort vergisst, muss beim Anbieter ein neues anfordern, erklärte die Verbraucherzentrale.",
      "About 300 visitors came to the online auction, twice as many as last year.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: citation templates", () => {
  it("drops a 'suggested citation' block", async () => {
    const out = await md(
      article(
        "<p>SUGGESTED CITATION Sauer, Heiko: Expert*innen in der Krise, VerfBlog, 2020/4/09, https://example.org/a.</p>",
      ),
    );
    expect(out).not.toContain("SUGGESTED CITATION");
  });

  it("keeps a sentence that opens with the same words", async () => {
    const sentence = "Suggested citation formats differ between journals, the editors noted.";
    const out = await md(article(`<p>${sentence}</p>`));
    expect(out).toContain(sentence);
  });
});

describe("extractMarkdown: author-archive links and issue promotions", () => {
  it("drops an author box's 'view all posts' line and a current-issue promotion", async () => {
    const out = await md(
      articleEnd(
        "<p>Life is not digital. Zeige alle Beiträge von Cem Basman</p>",
        "<p>Die aktuelle Ausgabe der L-MAG jetzt an jedem Bahnhofskiosk, im Abo und als e-Paper erhältlich.</p>",
      ),
    );
    expect(out).not.toContain("Zeige alle Beiträge");
    expect(out).not.toContain("Bahnhofskiosk");
  });

  it("keeps sentences about posts and issues", async () => {
    const sentences = [
      "Moderators can view all posts by new members before they appear, the forum rules say.",
      "Die aktuelle Ausgabe des Gesetzes regelt, wer die Kosten trägt.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: feedback, rating and comment-count widgets", () => {
  it("drops 'was this helpful', a rating line and a comment count", async () => {
    const out = await md(
      articleEnd(
        "<p>War dieser Artikel hilfreich?</p>",
        "<div>4.5 out of 5 stars (120 ratings)</div>",
        "<div>3 Kommentare</div>",
        "<div>Edit this page on GitHub</div>",
      ),
    );
    expect(out).not.toContain("hilfreich");
    expect(out).not.toContain("120 ratings");
    expect(out).not.toContain("3 Kommentare");
    expect(out).not.toContain("Edit this page");
  });

  it("keeps sentences about helpfulness, ratings and comments", async () => {
    const sentences = [
      "Ob der Artikel hilfreich war, entschieden am Ende die Leser, sagte die Redakteurin.",
      "The hotel scored 4.5 out of 5 in the survey, up from 3.9 last year.",
      "The minister received 3 comments from the public, all of them critical.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });

  it("keeps a run of closing headings that is the page's own list", async () => {
    const names = [
      "16. Stephen Fry",
      "17. Alan Cumming",
      "18. Kal Penn",
      "19. Jonathan Groff",
      "20. Chris Colfer",
    ];
    const out = await md(
      article(...names.map((n) => `<h2>${n}</h2><img src="/${n.length}.jpg" alt="">`)).replace(
        /<p>Second part:.*<\/article>/,
        "</article>",
      ),
    );
    for (const n of names) expect(out).toContain(n);
  });
});

describe("extractMarkdown: the site's social accounts", () => {
  it("drops 'follow us on Instagram' lines", async () => {
    const out = await md(
      article(
        "<p>Folgt uns auf unserem neuen offiziellen Instagram-Account!</p>",
        "<p>Stay informed and follow us on Facebook and Twitter.</p>",
      ),
    );
    expect(out).not.toContain("Instagram");
    expect(out).not.toContain("follow us on Facebook");
  });

  it("keeps sentences about following on social networks", async () => {
    const sentences = [
      "Fans who follow us every week on the radio asked for more, the host said on Facebook.",
      "The campaign urged voters to follow its accounts on Instagram, critics said.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: teaser lines that trail off into a link", () => {
  it("drops 'Lesen Sie hier einen weiteren spannenden Beitrag …'", async () => {
    const out = await md(
      article('<p><a href="/t">Lesen Sie hier einen weiteren spannenden Beitrag …</a></p>'),
    );
    expect(out).not.toContain("weiteren spannenden Beitrag");
    expect(out).toContain("Second part:");
  });

  it("keeps a sentence that trails off the same way", async () => {
    const lines = [
      "Lea ging nach Hause und sagte nichts mehr …",
      "Lesen Sie das Kleingedruckte, sagte der Anwalt.",
    ];
    const out = await md(article(...lines.map((s) => `<p>${s}</p>`)));
    for (const s of lines) expect(out).toContain(s);
  });
});

describe("extractMarkdown: sentences that report on appeals, notices and disclosures stay", () => {
  it("keeps a help page's step about the 'Forgot your password?' link", async () => {
    const step = "Click “Forgot your password?” below the sign-in button.";
    const out = await md(
      article(`<ol><li>Open the sign-in page.</li><li>${step}</li><li>Enter your email.</li></ol>`),
    );
    expect(out).toContain("Forgot your password?");
  });

  it("keeps 'Forgot your password?' quoted inside a long sentence", async () => {
    const sentence =
      "The help desk, which answered more than four hundred calls during the week of the migration, told users to look for the familiar controls on the new page, such as the link <span>“Forgot your password?”</span> under the form, and to ignore any email that asked them to confirm their account details by replying with their old password, because the company would never ask for it.";
    const out = await md(article(`<p>${sentence}</p>`));
    expect(out).toContain("Forgot your password?");
  });

  it("keeps a cookie policy's 'We use cookies to …' paragraphs", async () => {
    const lines = [
      "We use cookies to remember your language and the items in your basket.",
      "We use cookies to count visits, so that we can see which pages are read most often.",
      "This site uses cookies from third parties only when you have agreed to them in the settings.",
    ];
    const cookieProse =
      "Cookies are small text files that a website stores in your browser. Some are needed for the site to work, others help us understand how it is used, and you can delete them at any time in your browser's settings.";
    const out = await md(
      page(
        `<article><h1>Cookie policy</h1><p>${cookieProse}</p>${lines.map((s) => `<p>${s}</p>`).join("")}<p>Second part: ${cookieProse}</p><p>${cookieProse}</p></article>`,
      ),
    );
    for (const s of lines) expect(out).toContain(s);
  });

  it("keeps sentences about inboxes, quoted appeals, affiliate links, members online and asterisks", async () => {
    const sentences = [
      "Phishing emails are delivered to your inbox looking like invoices from suppliers you know.",
      "“Support us,” the strikers chanted outside the factory gates on Monday.",
      "Any review site that uses affiliate links must now say so before the first link.",
      "The forum had 2,000 members online at the peak of the outage, the operators said.",
      "Gemeinden mit Nachzählung sind mit einem Sternchen markiert.",
    ];
    const out = await md(article(...sentences.map((s) => `<p>${s}</p>`)));
    for (const s of sentences) expect(out).toContain(s);
  });
});

describe("extractMarkdown: teaser headings over content", () => {
  it("keeps a live blog's 'Latest news' section with an unlinked list and a table", async () => {
    const out = await md(
      article(
        "<h2>Latest news</h2><ul><li>Polls closed at 8 pm in all districts</li><li>Turnout stood at 61 percent</li></ul>",
        "<table><tr><th>Party</th><th>Seats</th></tr><tr><td>Greens</td><td>12</td></tr><tr><td>Liberals</td><td>9</td></tr></table>",
      ),
    );
    expect(out).toContain("Latest news");
    expect(out).toContain("Turnout stood at 61 percent");
    expect(out).toContain("Liberals");
  });
});

describe("extractMarkdown: dates and name-less 'By' lines in the body", () => {
  const LEAD =
    "<p>Follow these expert tips for hydrangea care, whether in a vase or in the ground, for blooms all season.</p>";

  it("keeps an event's date after the first paragraph", async () => {
    const out = await md(
      page(`<article><p>${PROSE}</p><p>Saturday, 14 June 2025</p><p>${PROSE}</p></article>`),
    );
    expect(out).toContain("Saturday, 14 June 2025");
  });

  it("keeps lines that open with By, Di or Von but are not bylines", async () => {
    const lines = [
      "By Christmas, the club hopes to have its new stadium finished",
      "Di Maria scores twice as Benfica win the derby",
      "Von Braun built his first rocket as a teenager",
    ];
    const out = await md(
      page(
        `<article>${LEAD}${lines.map((s) => `<p>${s}</p>`).join("")}<p>${PROSE}</p><p>${PROSE}</p></article>`,
      ),
    );
    for (const s of lines) expect(out).toContain(s);
  });
});

describe("extractMarkdown: picture credits", () => {
  // The credit-tail pattern may start at any slash: a quadratic scan of this alt text (a million characters) is
  // minutes, far past the test's timeout, where a linear one is milliseconds. The time itself is measured in
  // bench/hostile.bench.mjs ("alt-slashes-200k"), not asserted here.
  it("reads a long alt text of many slashes without backtracking (the credit tail may start anywhere)", async () => {
    const alt = `Crowds gather in the square${" / AB".repeat(200_000)}!`;
    const html = `<html><body><article><h1>A crowd in the square today</h1>${"<p>The committee met on Tuesday to review the proposal, which had been discussed for months.</p>".repeat(8)}<figure><img src="a.jpg" alt="${alt}"></figure></article></body></html>`;
    const out = await extractMarkdown(html, "https://example.org/a");
    expect(out.markdown).toContain("The committee met on Tuesday");
  });
});

import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// A page that declares no kind and is a stack of headed sections without a post's marks is a landing page (a
// service's, a company's): its short lines and its headed cards with icons are its content, not widgets.

const SECTIONS = ["Booking", "Reminders", "Billing", "Reports", "Security"];

function landing(extra = ""): string {
  const sections = SECTIONS.map(
    (name) => `<section><h2>${name} that runs itself</h2>
<p>Acme's ${name.toLowerCase()} works the way your front desk already does, so nobody has to learn a new screen.</p></section>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme for clinics</title></head><body>
<header><a href="/">Acme</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></header>
<main>
<section><h1>Scheduling for busy clinics</h1>
<p>Acme books, reminds and bills your patients, so that your front desk can get back to the people in the waiting room.</p>
${extra}</section>
<section><h2>What clinics see in a year</h2>
<div class="stats"><div class="stat"><div>3X</div><div>Faster booking</div></div>
<div class="stat"><div>42%</div><div>Fewer no-shows</div></div></div></section>
<section><h2>Built for the front desk</h2>
<div class="card"><img src="/i/bell.svg" alt=""><img src="/i/bell-dark.svg" alt=""><h3>Smart reminders</h3><div>Texts before each visit</div></div>
</section>
${sections}
</main>
<footer><a href="/privacy">Privacy</a></footer></body></html>`;
}

describe("landing pages: a stack of short sections", () => {
  it("keeps a landing page's figures and its headed cards with icons", async () => {
    const { markdown } = await extractMarkdown(landing(), "https://acme.example/");
    expect(markdown).toContain("3X");
    expect(markdown).toContain("Fewer no-shows");
    expect(markdown).toContain("Smart reminders");
    expect(markdown).toContain("Texts before each visit");
  });

  it("a short line stating a day is a post's date: the same page so dated is pruned as before", async () => {
    const { markdown } = await extractMarkdown(
      landing("<div>Last change: 14.01.2022 at 09:25</div>"),
      "https://acme.example/",
    );
    expect(markdown).toContain("Scheduling for busy clinics");
    expect(markdown).not.toContain("Fewer no-shows");
    expect(markdown).not.toContain("Texts before each visit");
  });

  it("a page with a <time> is a post, whose short fragments are widgets", async () => {
    const { markdown } = await extractMarkdown(
      landing('<p>Posted on <time datetime="2024-05-02">the second of May</time></p>'),
      "https://acme.example/",
    );
    expect(markdown).not.toContain("Fewer no-shows");
  });
});

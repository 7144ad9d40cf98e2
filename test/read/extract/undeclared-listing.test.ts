import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

// Pages that declare no kind (no schema.org type, no Open Graph type, no listing-shaped URL): a run of alike
// items that is most of the page makes it a listing, unless the content chosen by its prose is a post.

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
];

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title></head><body>
<div class="masthead"><a href="/">Notes</a> <a href="/about">About</a></div>${body}
<div class="colophon"><p>Set in Charter. No trackers.</p></div></body></html>`;
}

function archive(count: number): string {
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const month = MONTHS[i % MONTHS.length]!;
    const year = 2024 - Math.floor(i / MONTHS.length);
    items.push(`<li><a href="/${year}/${(i % 10) + 1}/">${month} ${year}</a> (${(i % 4) + 1})</li>`);
  }
  return `<ul>${items.join("")}</ul>`;
}

describe("a page that declares nothing: listing or post", () => {
  it("a short dated post beside a long month archive is the post: a date or byline says it is one", async () => {
    const html = page(`<div class="cols">
<div class="col-a"><div class="entry"><h2>Interning of small integers</h2>
<div class="postdata"><span class="who">Konstantin</span> <span class="date">21.10.2019</span></div>
<p>A lovely example of how the interpreter interns small integers, and of what the ctypes module lets one do to them.</p>
<p>Depending on the version the value sits at offset four or six.</p></div></div>
<div class="col-b">${archive(90)}</div></div>`);
    const { markdown } = await extractMarkdown(html, "https://notes.example.org/2019/10/21/interning");
    expect(markdown).toContain("A lovely example of how the interpreter interns small integers");
    expect(markdown).not.toContain("March 2016");
  });

  it("a post that is one of a stream's alike blocks is the page, not the stream", async () => {
    const cards: string[] = [];
    for (let i = 0; i < 60; i++)
      cards.push(`<div class="card"><a href="/notes/${i}">Field note ${i}</a> · ${(i % 9) + 2} min</div>`);
    const html = page(`<div class="stream">
<div class="note-full"><h1>Why the kettle sings</h1>
<p>Steam bubbles collapse, again and again, at the bottom of the pot, and each collapse is a tiny knock.</p>
<p>Near the boil the bubbles survive, rise, and burst at the top, which is why the noise drops.</p></div>
${cards.join("\n")}</div>`);
    const { markdown } = await extractMarkdown(html, "https://notes.example.org/kettle");
    expect(markdown).toContain("Steam bubbles collapse, again and again");
    expect(markdown).not.toContain("Field note 42");
  });

  it("an undated short article beside a news column holding most of the page stays the article", async () => {
    const news: string[] = [];
    for (let i = 0; i < 12; i++)
      news.push(
        `<div class="item"><a href="/news/${i}">Council votes on the ${i}th ring road plan after a long debate</a></div>`,
      );
    const html = page(`<div class="cols">
<div class="col-a"><h1>Ferry timetable changes from Monday</h1>
<p>The early ferry leaves at six, not half past, and the last one runs until midnight on Fridays.</p>
<p>Season tickets bought before the change stay valid, the operator said.</p></div>
<div class="col-b">${news.join("\n")}</div></div>`);
    const { markdown } = await extractMarkdown(html, "https://harbour.example.org/ferry-timetable");
    expect(markdown).toContain("The early ferry leaves at six");
    expect(markdown).not.toContain("Council votes on the 7th ring road plan after");
  });

  it("an undated article beside a news column nearly the whole page stays the article: its running prose says so", async () => {
    const news: string[] = [];
    for (let i = 0; i < 70; i++)
      news.push(
        `<div class="item"><a href="/news/${i}">Council votes on the ${i}th ring road plan after a long debate</a></div>`,
      );
    const html = page(`<div class="cols">
<div class="col-a"><h1>Ferry timetable changes from Monday</h1>
<p>The early ferry leaves at six, not half past, and the last one runs until midnight on Fridays, the operator said on Tuesday after a month of talks with the unions and the town.</p>
<p>Season tickets bought before the change stay valid until they run out, and holders of monthly passes get the difference back if they used the half-past sailing more than ten times.</p>
<p>Cyclists keep their free places on the car deck, though the operator asks them to be at the ramp ten minutes before departure so that the lorries can be loaded first.</p>
<p>The winter timetable, with two sailings fewer on Sundays, will be published in October, and the operator promised to ask passengers before it is settled.</p></div>
<div class="col-b">${news.join("\n")}</div></div>`);
    const { markdown } = await extractMarkdown(html, "https://harbour.example.org/ferry-timetable");
    expect(markdown).toContain("Cyclists keep their free places on the car deck");
    expect(markdown).not.toContain("Council votes on the 7th ring road plan after");
  });

  it("a welcome line over a home page's grid, a tenth of it, is the grid's heading, not a post beside it", async () => {
    const cards: string[] = [];
    for (let i = 1; i <= 20; i++)
      cards.push(
        `<div class="card"><a href="/stones/${i}"><b>Whetstone number ${i}</b> ` +
          `<span>A ${1000 + i * 200} grit stone, soaked ten minutes.</span></a></div>`,
      );
    const families = Array.from(
      { length: 14 },
      (_, i) => `<li><a href="/grit/${i}">Grit family ${i} stones</a></li>`,
    );
    const html =
      page(`<div class="welcome"><p>Welcome to the stones shop, where every stone is tried before it is sold, pick a grit.</p></div>
<div class="grid">${cards.join("")}</div><ul class="families">${families.join("")}</ul>`);
    const { markdown } = await extractMarkdown(html, "https://stones.example.com/");
    expect(markdown).toContain("Whetstone number 7");
    expect(markdown).toContain("A 3400 grit stone");
  });
});

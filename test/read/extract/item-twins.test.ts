import { describe, expect, it } from "vitest";
import { extractMarkdown } from "../../../src/read/extract/index.js";

const EVENTS = ["Rust meetup", "Data night", "Design clinic", "Cloud day", "Testing talk", "Security hour"];

// An event list whose cards carry their title block twice, one layout for wide screens and one for narrow.
function eventList(): string {
  const cards = EVENTS.map(
    (name, i) =>
      `<li class="event-card"><a href="/e/${i}"><div class="wide"><h3>${name} number ${i}</h3><p>Tuesday at ${i + 1}:00 PM</p><p>Hosted by the ${name.toLowerCase()} group</p></div><div class="narrow"><h3>${name} number ${i}</h3><p>Tuesday at ${i + 1}:00 PM</p></div></a></li>`,
  ).join("");
  return `<!doctype html><html><head><title>Online tech events</title></head><body>
<header><nav><a href="/">Home</a> <a href="/events">Events</a></nav></header>
<main><h1>Online tech events</h1><ul class="events">${cards}</ul></main>
<footer><p>Events footer</p></footer></body></html>`;
}

describe("a card that carries its title block twice", () => {
  it("says each card's title once", async () => {
    const { markdown } = await extractMarkdown(eventList(), "https://events.example.com/search/online/");
    expect(markdown.split("Design clinic number 2").length - 1).toBe(1);
    expect(markdown.split("Security hour number 5").length - 1).toBe(1);
    expect(markdown).toContain("Hosted by the cloud day group");
    expect(markdown).toContain("Tuesday at 3:00 PM");
  });

  it("keeps the heading when the line it repeats is a plain overlay, not a title block", async () => {
    const cards = EVENTS.map(
      (name, i) =>
        `<li class="event-card"><a href="/e/${i}"><span class="overlay">${name} number ${i}</span></a><h3><a href="/e/${i}">${name} number ${i}</a></h3><p>Tuesday at ${i + 1}:00 PM, hosted by the ${name.toLowerCase()} group</p></li>`,
    ).join("");
    const html = eventList().replace(/<ul class="events">.*<\/ul>/s, `<ul class="events">${cards}</ul>`);
    const { markdown } = await extractMarkdown(html, "https://events.example.com/search/online/");
    expect(markdown).toMatch(/^\s*#+ Design clinic number 2$/m);
    expect(markdown).toMatch(/^\s*#+ Security hour number 5$/m);
  });
});

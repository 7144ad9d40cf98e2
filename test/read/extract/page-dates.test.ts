import { describe, expect, it } from "vitest";
import { sourceDates } from "../../../src/ground/sources.js";
import { parseHtml } from "../../../src/read/extract/dom.js";
import { readMetadata } from "../../../src/read/extract/metadata.js";
import { calendarDay } from "../../../src/read/extract/page-dates.js";

const datesOf = (head: string, body = "") =>
  readMetadata(parseHtml(`<html><head>${head}</head><body>${body}</body></html>`)).dates;

describe("page dates", () => {
  it("meta tags first, each date named by its tag", () => {
    expect(
      datesOf(
        `<meta property="article:published_time" content="2026-01-05T23:30:00-05:00">
         <meta property="article:modified_time" content="2026-02-01T08:00:00Z">
         <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2020-01-01"}</script>`,
      ),
    ).toEqual({
      // The page's own day, whatever its time zone says in UTC.
      published: { date: "2026-01-05", from: "meta:article:published_time" },
      modified: { date: "2026-02-01", from: "meta:article:modified_time" },
    });
  });

  it("JSON-LD when no meta tag states a date", () => {
    expect(
      datesOf(
        `<script type="application/ld+json">{"@graph":[{"@type":"BlogPosting","datePublished":"2025-03-04","dateModified":"2025-06-07T10:00:00+02:00"}]}</script>`,
      ),
    ).toEqual({
      published: { date: "2025-03-04", from: "json-ld" },
      modified: { date: "2025-06-07", from: "json-ld" },
    });
  });

  it("time elements, an update told by its words", () => {
    expect(
      datesOf(
        "",
        `<p>Posted <time datetime="2024-11-02">Nov 2</time> · Updated <time datetime="2024-12-24">Dec 24</time></p>`,
      ),
    ).toEqual({
      published: { date: "2024-11-02", from: "time" },
      modified: { date: "2024-12-24", from: "time" },
    });
  });

  it("a byline's words in several languages", () => {
    expect(datesOf("", `<div class="byline">By Ann Lee · January 5, 2026</div>`)).toEqual({
      published: { date: "2026-01-05", from: "byline" },
    });
    expect(
      datesOf("", `<p class="post-meta">Veröffentlicht am 3. März 2025, aktualisiert 04.03.2025</p>`),
    ).toEqual({
      published: { date: "2025-03-03", from: "byline" },
      modified: { date: "2025-03-04", from: "byline" },
    });
    expect(datesOf("", `<span class="date">5 de enero de 2026</span>`)?.published?.date).toBe("2026-01-05");
  });

  it("a page without dates states none, and impossible days are passed over", () => {
    expect(datesOf("<title>t</title>", "<p>No dates here, only 2,962 metres.</p>")).toBeUndefined();
    expect(calendarDay("2026-02-30")).toBeUndefined();
    expect(calendarDay("0000-00-00")).toBeUndefined();
    expect(calendarDay("Mon, 05 Jan 2026 10:00:00 GMT")).toBe("2026-01-05");
  });
});

describe("a source's dates", () => {
  const now = new Date("2026-12-02T06:00:00Z");
  it("Last-Modified only when the page states no date", () => {
    expect(sourceDates({ lastModified: "Tue, 01 Dec 2026 10:00:00 GMT" }, now)).toEqual({
      modified: { date: "2026-12-01", from: "http-last-modified" },
    });
    expect(
      sourceDates(
        {
          dates: { published: { date: "2026-01-05", from: "json-ld" } },
          lastModified: "Tue, 01 Dec 2026 10:00:00 GMT",
        },
        now,
      ),
    ).toEqual({ published: { date: "2026-01-05", from: "json-ld" } });
  });

  it("a day past the lookup is no date", () => {
    expect(sourceDates({ dates: { published: { date: "2027-06-01", from: "meta:date" } } }, now)).toEqual({});
  });
});

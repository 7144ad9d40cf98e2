import { describe, expect, it } from "vitest";
import { textFromEmbeddedData } from "../../../src/read/embedded-data.js";

const para1 =
  "The harbour was rebuilt in 1922 after the storm destroyed the old wooden piers, and trade returned.";
const para2 =
  "Fishermen still land their catch at dawn; the market opens at six and closes before noon each day.";

describe("textFromEmbeddedData", () => {
  it("reads __NEXT_DATA__ page props, skipping identifiers, URLs and build metadata", () => {
    const data = {
      props: {
        pageProps: {
          author: { name: "Ada Keeper" },
          post: {
            id: "abc123",
            title: "Harbour history",
            slug: "harbour-history",
            coverImage: "https://cdn.example.com/a-very-long-image-name-that-is-not-prose-at-all.jpg",
            body: `<p>${para1}</p><h2>Today</h2><p>${para2} &amp; more.</p>`,
          },
        },
      },
      buildId: "x".repeat(80),
      page: "/posts/[slug]",
    };
    const html = `<html><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script></body></html>`;
    const out = textFromEmbeddedData(html);
    expect(out?.from).toBe("__NEXT_DATA__");
    expect(out?.title).toBe("Harbour history");
    expect(out?.markdown).toContain(para1);
    expect(out?.markdown).toContain("## Today");
    expect(out?.markdown).toContain("& more.");
    expect(out?.markdown).not.toContain("cdn.example.com");
    expect(out?.markdown).not.toContain("xxxx");
  });

  it("prefers JSON-LD articleBody", () => {
    const ld = {
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "Organization", name: "Example Corp" },
        { "@type": "NewsArticle", headline: "Storm report", articleBody: `${para1}\n\n${para2}` },
      ],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(ld)}</script><div id="root"></div>`;
    expect(textFromEmbeddedData(html)).toEqual({
      title: "Storm report",
      markdown: `${para1}\n\n${para2}`,
      from: "json-ld",
    });
  });

  it("reads state assigned to window, as JSON or as code (Nuxt 2)", () => {
    const json = `<script>window.__INITIAL_STATE__ = ${JSON.stringify({ article: { text: para1 } })};</script>`;
    expect(textFromEmbeddedData(json)?.markdown).toBe(para1);
    const code = `<script>window.__NUXT__=(function(a,b){return {data:[{body:a,intro:b}]}}(${JSON.stringify(para1)},${JSON.stringify(para2)}));</script>`;
    const out = textFromEmbeddedData(code);
    expect(out?.from).toBe("__NUXT__");
    expect(out?.markdown).toBe(`${para1}\n\n${para2}`);
  });

  it("returns nothing when the islands carry no prose", () => {
    const html = `<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"ids":[1,2,3],"theme":"dark"}}}</script>`;
    expect(textFromEmbeddedData(html)).toBeUndefined();
    expect(textFromEmbeddedData("<p>no scripts</p>")).toBeUndefined();
  });

  it("drops repeated strings and class lists", () => {
    const data = {
      a: para1,
      b: para1,
      cls: "flex items-center justify-between md:px-4 lg:px-8 hover:bg-gray-100 dark:text-white text-sm font-medium",
    };
    const html = `<script type="application/json" id="data">${JSON.stringify(data)}</script>`;
    expect(textFromEmbeddedData(html)?.markdown).toBe(para1);
  });
});

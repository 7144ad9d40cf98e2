import { describe, expect, it } from "vitest";
import { parseHtml } from "../../../src/read/extract/dom.js";
import { pageKind } from "../../../src/read/extract/page-kind.js";

const page = (head: string, body = "<p>Hello</p>") =>
  parseHtml(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
const ld = (json: object) => `<script type="application/ld+json">${JSON.stringify(json)}</script>`;

describe("pageKind: what a page says it is", () => {
  it("reads schema.org types from JSON-LD, most specific first", () => {
    expect(pageKind(page(ld({ "@type": ["WebPage", "QAPage"] })), "https://example.org/x")).toBe("forum");
    expect(
      pageKind(
        page(ld({ "@graph": [{ "@type": "BreadcrumbList" }, { "@type": "Product" }] })),
        "https://example.org/x",
      ),
    ).toBe("product");
    expect(pageKind(page(ld({ "@type": "CollectionPage" })), "https://example.org/x")).toBe("listing");
    expect(pageKind(page(ld({ "@type": "NewsArticle" })), "https://example.org/x")).toBe("article");
  });

  it("reads microdata item types and a product's Open Graph type", () => {
    const thread = page(
      "",
      '<div itemscope itemtype="http://schema.org/DiscussionForumPosting"><p>Hi</p></div>',
    );
    expect(pageKind(thread, "https://example.org/x")).toBe("forum");
    expect(pageKind(page('<meta property="og:type" content="product">'), "https://example.org/x")).toBe(
      "product",
    );
  });

  it("takes several products declared on one page for a listing's items", () => {
    const products = ld({
      "@type": "ItemList",
      itemListElement: [1, 2, 3].map(() => ({ "@type": "Product" })),
    });
    expect(pageKind(page(products), "https://example.org/x")).toBe("listing");
  });

  it("takes a listing's address over an Open Graph type article, which CMSs write on every page", () => {
    const og = page('<meta property="og:type" content="article">');
    expect(pageKind(og, "https://blog.example.org/category/gardening/")).toBe("listing");
    expect(pageKind(og, "https://shop.example.org/collections/sheets")).toBe("listing");
    expect(pageKind(og, "https://blog.example.org/2024/05/pruning-apple-trees/")).toBe("article");
    // A forum names its threads /topic/ as often as a site names its listings so.
    expect(pageKind(og, "https://forum.example.org/topic/catering-tips")).toBe("article");
  });

  it("takes a platform's listing template, named in the body's classes, over Open Graph's article", () => {
    const templated = (bodyClass: string, head = '<meta property="og:type" content="article">') =>
      parseHtml(`<html><head>${head}</head><body class="${bodyClass}"><p>Hi</p></body></html>`);
    const url = "https://blog.example.org/blog-posts-for-beginners/";
    expect(pageKind(templated("archive category category-beginners"), url)).toBe("listing");
    expect(
      pageKind(templated("catalog-category-view page-products", ""), "https://shop.example.org/pieces.html"),
    ).toBe("listing");
    expect(pageKind(templated("wp-singular single single-post"), url)).toBe("article");
    // A class that only contains the word is no template's name.
    expect(pageKind(templated("archive-link-widget"), url)).toBe("article");
    // The publisher's schema.org type is its own word for the page.
    expect(pageKind(templated("template-collection", ld({ "@type": "Product" })), url)).toBe("product");
  });

  it("takes a thread's address over an Open Graph type article, which forum engines write on threads too", () => {
    const og = page('<meta property="og:type" content="article">');
    expect(pageKind(og, "https://forums.example.org/threads/do-forums-still-have-a-role.2880547/")).toBe(
      "forum",
    );
    expect(pageKind(og, "https://forum.example.org/viewtopic.php?t=361697")).toBe("forum");
  });

  it("falls back to the URL's shape, and says unknown when nothing speaks", () => {
    expect(pageKind(page(""), "https://forum.example.org/t/some-topic/123")).toBe("forum");
    // A federated forum's thread (Lemmy, kbin) is a numbered post; a blog's post has a name.
    expect(pageKind(page(""), "https://lemmy.ml/post/21018364")).toBe("forum");
    expect(pageKind(page(""), "https://blog.example.org/post/pruning-apple-trees")).toBe("unknown");
    expect(pageKind(page(""), "https://shop.example.org/collections/shoes")).toBe("listing");
    expect(pageKind(page(""), "https://example.org/docs/getting-started")).toBe("docs");
    expect(pageKind(page(""), "https://example.org/about-us")).toBe("unknown");
    expect(pageKind(page(""), "not a url")).toBe("unknown");
  });

  it("does not take an FAQ's questions for a Q&A thread", () => {
    const faq = ld({ "@type": "FAQPage", mainEntity: [{ "@type": "Question" }] });
    expect(pageKind(page(faq), "https://example.org/help")).toBe("unknown");
  });

  it("takes a page built by a documentation generator, or served from a docs host, for documentation", () => {
    const sphinx = page('<meta name="generator" content="Docutils 0.19: https://docutils.sourceforge.io/">');
    expect(pageKind(sphinx, "https://www.kernel.org/doc/html/latest/process/submitting-patches.html")).toBe(
      "docs",
    );
    expect(
      pageKind(page('<meta name="generator" content="Docusaurus v3.5.2">'), "https://example.org/x"),
    ).toBe("docs");
    // A blog's generator says nothing about the page's kind.
    expect(pageKind(page('<meta name="generator" content="Hugo 0.143.1">'), "https://example.org/x")).toBe(
      "unknown",
    );
    expect(pageKind(page(""), "https://docs.python.org/3/tutorial/datastructures.html")).toBe("docs");
    expect(pageKind(page(""), "https://developer.android.com/get-started/overview")).toBe("docs");
  });

  it("takes a page titled as a list for a listing, over a wiki's schema.org Article", () => {
    const wiki = page(
      `<title>List of programming languages - Wikipedia</title>${ld({ "@type": "Article" })}`,
    );
    expect(pageKind(wiki, "https://en.wikipedia.org/wiki/List_of_programming_languages")).toBe("listing");
    const drawing = page(ld({ "@type": "Article" }), "<svg><title>List of shapes</title></svg><p>Hi</p>");
    expect(pageKind(drawing, "https://example.org/x")).toBe("article");
  });

  it("takes an address ending at a section's name for the section's front, over Open Graph's article", () => {
    const og = '<meta property="og:type" content="article">';
    expect(pageKind(page(og), "https://www.example.com/news")).toBe("listing");
    expect(pageKind(page(og), "https://www.example.org/sections/science/")).toBe("listing");
    expect(pageKind(page(""), "https://news.example.com/jobs")).toBe("listing");
    expect(pageKind(page(og), "https://www.example.com/news/2026/storm-hits-coast")).toBe("article");
    expect(pageKind(page(og), "https://www.example.com/blog/how-we-rebuilt-search")).toBe("article");
  });
});

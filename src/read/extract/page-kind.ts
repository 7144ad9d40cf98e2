import type { Document, Element } from "./dom.js";
import { classNames, findFirst, isTag, textContent, walkElements } from "./dom.js";

/** What a page says it is, which decides how its content is taken (an article's prose, a listing's items). */
export type PageKind = "article" | "forum" | "product" | "listing" | "docs" | "unknown";

// Schema.org types (JSON-LD @type, microdata itemtype), most specific first: a product page often also
// declares a BreadcrumbList, a forum thread a WebPage.
const SCHEMA_KINDS: [RegExp, PageKind][] = [
  [/^(?:DiscussionForumPosting|QAPage)$/, "forum"],
  [/^(?:Product|ProductGroup|IndividualProduct)$/, "product"],
  [/^(?:CollectionPage|ItemList|SearchResultsPage|OfferCatalog)$/, "listing"],
  [/^(?:TechArticle|APIReference)$/, "docs"],
  [/^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|Recipe|Review|LiveBlogPosting)$/, "article"],
];

// URL shapes of the kinds, as the big platforms write them. A thread's address also outranks an Open Graph type
// "article", which forum engines (XenForo) write on every thread.
const THREAD_PATH =
  /\/(?:t|d|threads?|showthread\.php|viewtopic\.php|questions|discussions?)\/|\/post\/\d+(?:\/|$)|\/viewtopic\.php|\/showthread\.php/i;
const URL_KINDS: [RegExp, PageKind][] = [
  [THREAD_PATH, "forum"],
  [/\/(?:products?|item|itm|dp|p)\/[^/]+|\/product-p?\d|\.product\./i, "product"],
  [
    /\/(?:c|category|categories|collections?|tags?|topics?|shop|search|browse|b|list|lists|chart)(?:\/|$|\?)/i,
    "listing",
  ],
  [/\/(?:docs?|documentation|reference|api|manual|guide)\//i, "docs"],
];

// A documentation site's own host ("docs.python.org", "developer.android.com"), for a path that says nothing.
const DOCS_HOST = /^(?:docs?|developers?)\./i;

// Documentation generators that say so in a generator meta tag (a blog generator says nothing about kind).
const DOCS_GENERATOR =
  /^(?:sphinx|docutils|docusaurus|mkdocs|rustdoc|gitbook|bookdown|vitepress|vuepress|mdbook|antora|docfx|starlight|nextra|mintlify|typedoc|jsdoc|doxygen|hugo-book|docsy)\b/i;

// Open Graph's product type as shops write it ("product", "og:product", "product.item", "zalando_sharing:product");
// "product.group" is Facebook's type for a collection of products.
const OG_PRODUCT = /^og:(?:[\w.-]*:)?product(?:\.item)?$/i;

// A listing's address outranks an Open Graph type "article", which CMSs write on every page they serve
// (a blog's category page among them). Not a /topic/: forums name their threads so as often as listings.
const LISTING_OVER_OG_ARTICLE =
  /\/(?:c|category|categories|collections?|tags?|shop|search|browse|b|list|lists|chart)(?:\/|$|\?)/i;

// The template a platform rendered the page with, as it names it in the body's classes: WordPress's `archive`
// (a category, tag, taxonomy, author or date archive), Shopify's collection and search templates, Magento's
// and PrestaShop's category views, and a listing page so named. The platform's word for the page outranks
// Open Graph's `article`, which it writes on every page; a schema.org type is the publisher's own word.
const LISTING_TEMPLATE =
  /^(?:archive|template-collection|template-search|catalog-category-view|page-products|page-category|product-listing-page)$/;

// A section's front by its address: the path ends at the section's name ("/news", "/blog/", "/jobs",
// "/sections/science/"), where its stories are listed; a story's address goes on to a name of its own. It
// outranks Open Graph's `article`, which CMSs write on the section's front too.
const SECTION_FRONT =
  /\/(?:news|blog|articles|stories|recipes|reviews|latest|archives?|events|jobs|podcasts|videos|sections?\/[^/]+)\/?$/i;

// A title that says the page is a list ("List of programming languages - Wikipedia"). It outranks a schema.org
// `Article`, which wikis declare on every page.
const LIST_TITLE = /^\s*lists? of\b/i;

function schemaTypes(doc: Document): string[] {
  const types: string[] = [];
  walkElements(doc, (el: Element) => {
    if (el.name === "script" && el.attribs.type?.toLowerCase() === "application/ld+json") {
      // Only the declared types are read, with a pattern: a page's JSON-LD is often invalid JSON.
      for (const m of textContent(el).matchAll(/"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g))
        for (const t of m[1]!.matchAll(/"([^"]+)"/g)) types.push(t[1]!.replace(/^.*[/:]/, ""));
      return false;
    }
    const itemtype = el.attribs.itemtype;
    if (itemtype) for (const t of itemtype.split(/\s+/)) types.push(t.replace(/^.*\//, ""));
    if (el.name === "meta" && el.attribs.property === "og:type") types.push(`og:${el.attribs.content ?? ""}`);
    if (
      el.name === "meta" &&
      el.attribs.name?.toLowerCase() === "generator" &&
      DOCS_GENERATOR.test(el.attribs.content ?? "")
    )
      types.push("generator:docs");
    if (el.name === "body" && classNames(el).some((t) => LISTING_TEMPLATE.test(t)))
      types.push("template:listing");
    if (el.name === "title" && LIST_TITLE.test(textContent(el))) types.push("title:list");
    // A drawing's titles name its shapes, not the page.
    return el.name !== "svg";
  });
  return types;
}

/**
 * A page whose headline is inside a Product's microdata is that product's page: the other Products it declares
 * are the shop's recommendations (Salesforce Commerce Cloud marks up each "you may also like" card).
 */
function headlineInProduct(doc: Document): boolean {
  for (let at = findFirst(doc, (el) => el.name === "h1")?.parent; at && isTag(at); at = at.parent)
    if (at.attribs.itemscope !== undefined && /\/Product$/.test(at.attribs.itemtype ?? "")) return true;
  return false;
}

/**
 * The page's kind from what it says about itself: a title that says it is a list, schema.org types (the
 * publisher's word), then Open Graph's product type, a documentation generator's name, a platform's listing
 * template, a section front's address, Open Graph's article type (a listing's or a thread's address outranks
 * it), then the URL's shape and a documentation host.
 * Structure (repeated items, post markup) is judged where the content is chosen.
 */
export function pageKind(doc: Document, url: string): PageKind {
  const types = schemaTypes(doc);
  // Several products declared on one page are the items of a listing (a category page's ItemList), unless
  // the page says it is one product: a ProductGroup's variants (sizes, colours) are Products too.
  const oneProduct = types.some((t) => t === "ProductGroup" || OG_PRODUCT.test(t));
  if (!oneProduct && types.filter((t) => t === "Product").length >= 3 && !headlineInProduct(doc))
    return "listing";
  if (types.includes("title:list")) return "listing";
  for (const [pattern, kind] of SCHEMA_KINDS) if (types.some((t) => pattern.test(t))) return kind;
  if (types.some((t) => OG_PRODUCT.test(t))) return "product";
  if (types.includes("generator:docs")) return "docs";
  if (types.includes("template:listing")) return "listing";
  const ogArticle = types.includes("og:article");
  let path = "";
  let pathname = "";
  let host = "";
  try {
    const u = new URL(url);
    pathname = u.pathname;
    path = u.pathname + u.search;
    host = u.hostname;
  } catch {
    return ogArticle ? "article" : "unknown";
  }
  if (SECTION_FRONT.test(pathname)) return "listing";
  if (ogArticle)
    return LISTING_OVER_OG_ARTICLE.test(path) ? "listing" : THREAD_PATH.test(path) ? "forum" : "article";
  for (const [pattern, kind] of URL_KINDS) if (pattern.test(path)) return kind;
  return DOCS_HOST.test(host) ? "docs" : "unknown";
}

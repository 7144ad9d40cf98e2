import type { Document, Element } from "./dom.js";
import { findFirst, removeNodes, walkElements } from "./dom.js";

// Buyers' reviews on a product page are what others said about it, not the product: the references leave them
// out. A reviews section often has no heading a pattern could name (the reviews start right under a star
// chart), but shops and review widgets name its wrapper for what it is ("product-reviews", "reviews-list").
// Only the section is named so: a "review-card" alone may be a service page's testimonial (a pest controller's
// page declares its offer a Product), and Steam's "user_reviews" is the store's one-line summary of them.

const REVIEW_BLOCK =
  /^(?:(?:product|customer|buyer)[-_])?reviews?(?:[-_](?:list|section|container|wrapper|widget|body|content))?$/i;

function namesReviews(el: Element): boolean {
  const tokens = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.split(/\s+/);
  return tokens.some((t) => REVIEW_BLOCK.test(t));
}

/** Removes the blocks named for buyers' reviews, save one holding the page's headline. */
export function dropReviewBlocks(doc: Document): void {
  const doomed: Element[] = [];
  walkElements(doc, (el) => {
    if (!namesReviews(el)) return true;
    if (!findFirst(el, (d) => d.name === "h1")) doomed.push(el);
    return false;
  });
  removeNodes(doomed);
}

import { MODIFIER_WORDS } from "./chrome-names.js";
import type { Document, Element } from "./dom.js";
import { removeNodes, walkElements } from "./dom.js";

// A poster's signature is the same lines under each of their posts (titles, a shop's pitch, a motto): about
// the writer, not the thread. Cleaning drops a signature by name only where it is a small part of the page and
// not its running prose, so under a short post a long signature survived as the longest text of the thread.
// Engines name it in a class token that ends the name: IPS's "ipsEntry__signature" (and
// `data-role="memberSignature"`), FluxBB's "postsignature", vBulletin's "postbit_signature", XenForo's
// "message-signature". A modifier of the post itself ("with-signature", "post--has-signature",
// "ipsComment_hasSignature") is not one.
const SIGNATURE = /^[\w-]*signatures?$/i;
const MODIFIER = new RegExp(`(?:^|[-_])(?:${MODIFIER_WORDS})[-_]?signatures?$`, "i");

function isSignature(el: Element): boolean {
  if (el.attribs["data-role"] === "memberSignature") return true;
  const cls = el.attribs.class;
  return !!cls && cls.split(/\s+/).some((t) => SIGNATURE.test(t) && !MODIFIER.test(t));
}

/** Removes, in place, the posters' signatures of a thread. */
export function dropSignatures(doc: Document): void {
  const drop: Element[] = [];
  walkElements(doc, (el) => {
    if (!isSignature(el)) return true;
    drop.push(el);
    return false;
  });
  if (drop.length) removeNodes(drop);
}

import type { Element } from "./dom.js";
import { isHeading, isTag } from "./dom.js";
import { SETTINGS } from "./settings.js";

// Names that mean page furniture whatever else the class list says ("jp-relatedposts",
// "sharedaddy jp-post-flair"): consent banners, share bars, related-content teasers, author boxes, and a
// forum user's signature (the same lines under each of their posts, about the writer, not the thread).
// "cmp-" is a consent platform's prefix, and also Adobe AEM's for its core components: "cmp-text" and
// "cmp-title" are the content itself.
const STRONG =
  /cookie|consent|gdpr|onetrust|didomi|\bcmp-(?!(?:text|title|image|teaser|list|accordion|tabs|carousel|embed|container|contentfragment|experiencefragment|download|table|separator)\b)|share|sharing|social|newsletter|subscri|paywall|advert|(?:^|\s)(?:ads?|ads?[-_]\w+)(?:$|\s)|ad-?slot|sponsor|promo|popup|modal|skip-?link|print-?only|related|breadcrumb|sidebar|author-?(?:box|bio|info|desc|card|profile|container)|(?:^|[\s_-])bio(?:$|[\s_-])|about-?(?:the-?)?author|upsell|cross-?sell|recommend|more-?(?:stories|articles|posts)|(?:next|prev|previous)-?(?:post|story|article)|post-?nav|(?:^|[\s_-])cta(?:$|[\s_-])|rating|byline|(?:entry|post|article)-?(?:meta|footer|tags|info)|tag-?(?:list|cloud)|(?:^|\s)tags(?:\s|$)|caption|(?:photo|image|img|bild)-?(?:credit|source|copyright)|credits?(?:$|\s)|(?:^|[\s_-])(?:copyright|disclaimer)(?:$|[\s_-])|(?:^|\s)(?:[a-z]+-)?signature(?:container)?(?:\s|$)|(?:^|[\s_-])(?:user-?(?:info|details|card|profile)|post-?profile)(?:$|[\s_-])|(?:^|\s)nocontent(?:\s|$)/i;

// Readability's "unlikely candidates": overruled when the same name also says content.
const WEAK =
  /combx|(?:^|[\s_-])(?:header|footer|masthead|menu|navbar|nav|navigation|pagination|pager|toolbar|rss|shoutbox|skyscraper|login|signup|remark|meta)(?:$|[\s_-])/i;
const CONTENT_HINT = /article|body|content|main|post|entry|story|text|blog|thread|mathjax|recipe/i;
// The header of a part of the content ("card-header", "accordion-heading": an FAQ's question; "product-header": a
// product's name and description), not the page's.
const PART_HEADER =
  /(?:^|\s)(?:card|panel|accordion|collaps\w*|tab|toggle|faq|question|answer|item|section|block|box|list|table|module|product|recipe|event)[-_]?(?:header|heading|footer)(?:$|\s)/i;

// A class list that names the content container itself ("entry-content no-share") is content.
const CONTENT_TOKEN =
  /^(?:entry|entry-content|post|post-content|post-body|article|article-body|article-content|content|main|main-content|story|story-body|text|body|hentry)$/i;

// "commentary" names an opinion piece, not its readers' comments.
const COMMENTS = /comment(?!ary)|disqus|respond|replies|(?:^|[\s_-])reply(?:$|[\s_-])/i;

// The root each common web media player renders its interface into (video.js and Brightcove, JW Player, Plyr,
// MediaElement.js, Flowplayer, YouTube's and Yahoo's players). Every word inside is a control, a caption-settings
// menu ("Font Family: Arial, Georgia…") or an "up next" teaser; a rendered page is full of them.
const MEDIA_PLAYER =
  /(?:^|\s)(?:video-js|jwplayer|plyr|mejs__container|mejs-container|flowplayer|html5-video-player|yvp-content)(?:\s|$)/;

/** A media player's own interface: never the page's content, whatever it holds. */
export function isMediaPlayer(el: Element): boolean {
  return !!el.attribs.class && MEDIA_PLAYER.test(el.attribs.class);
}

/** The words a layout modifier starts with ("no-sidebar", "has-comments"): a state of the page, not a name. */
export const MODIFIER_WORDS = "no|has|with|without|hide|show";
const MODIFIER = new RegExp(String.raw`(?:^|\s|(?<=\w)[-_])(?:${MODIFIER_WORDS})[-_]\S*`, "gi");
// A utility class with an arbitrary selector (Tailwind's "[html.sidebar-filled_&]:bg-tint") names the page around
// the element, not the element: GitBook draws every code block with "[html.theme-bold.sidebar-filled_&]:bg-tint-base".
// The part before the "&" takes no "&" itself, so a hostile "[&&&&…" token is one pass, not a quadratic search.
const ARBITRARY_SELECTOR = /(?:^|\s)[^\s[]*\[[^\s\]&]*&[^\s\]]*\]\S*/g;

export type ChromeKind = "chrome" | "comments";

/** What an element's class and id say about it, if they name page chrome or a comment section. */
export function chromeKind(el: Element): ChromeKind | undefined {
  const name = nameOf(el);
  if (!name) return undefined;
  const cls = el.attribs.class;
  if (COMMENTS.test(name)) return "comments";
  if (STRONG.test(name)) return cls?.split(/\s+/).some((t) => CONTENT_TOKEN.test(t)) ? undefined : "chrome";
  if (
    WEAK.test(name) &&
    !CONTENT_HINT.test(name) &&
    !PART_HEADER.test(name) &&
    !isNamedHeading(el, name) &&
    !inHeading(el)
  )
    return "chrome";
  return undefined;
}

/** The element's class and id as one string to match names against, or undefined when it has neither. */
function nameOf(el: Element): string | undefined {
  const cls = el.attribs.class;
  const id = isHeadingAnchor(el) ? undefined : el.attribs.id;
  if (!cls && !id) return undefined;
  // A layout modifier ("no-sidebar", "has-comments", "without-share"), alone or ending a name (WordPress's
  // "section-with-header", a section that has a heading), describes the page around, not the element.
  return `${cls?.replace(ARBITRARY_SELECTOR, " ") ?? ""} ${id ?? ""}`.replace(MODIFIER, " ");
}

/** Names that say furniture or comments whatever else they say ("modal-header newsletter-head"). */
export function namesFurniture(el: Element): boolean {
  const name = nameOf(el);
  return !!name && (COMMENTS.test(name) || STRONG.test(name));
}

/** A heading named "…-header" ("wprm-recipe-ingredients-header", "section-heading") names itself, not the page's header. */
function isNamedHeading(el: Element, name: string): boolean {
  return isHeading(el) && /\w[-_](?:header|heading)(?:$|\s)/i.test(name);
}

/**
 * Inside a heading, a name such as "header" is the heading's own (mdBook writes every heading's text as
 * `<h2><a class="header" href="#…">`): its words are the heading's, not a page header's.
 */
function inHeading(el: Element): boolean {
  let up = el.parent;
  for (let level = 0; up && isTag(up) && level < SETTINGS.headingWrapperLevels; level++, up = up.parent)
    if (isHeading(up)) return true;
  return false;
}

/** Documentation generators name sections after their heading ("sharing-with-a-single-developer"). */
function isHeadingAnchor(el: Element): boolean {
  const id = el.attribs.id;
  if (!id || id.split(/[-_]/).length < 3) return false;
  const first = el.children.find(isTag);
  return !!first && isHeading(first);
}

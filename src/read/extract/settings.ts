/**
 * The extractor's knobs in one table: what each weighs and why. Every value was measured on the dev halves
 * of the extraction sets and checked on the held-out halves (bench/extraction-RESULTS.md gives the numbers
 * of each move); change one only with a run of `npx tsx bench/extract-dev.mjs` on both halves.
 */
export const SETTINGS = {
  /**
   * A `<noscript>` holding at least this many characters of text is a candidate for the page's
   * server-rendered view (Discourse's crawler view is a whole thread; "enable JavaScript" is a sentence).
   */
  serverViewMinChars: 500,
  /** …and it is the page when it holds at least this multiple of the rest of the body's text (the app shell is nearly empty). */
  serverViewShare: 1,

  /** A listing is a run of at least this many items built alike (three teasers are a widget). */
  listMinItems: 4,
  /** An item longer than this is a section or a post, not a listing's entry. */
  listItemMaxChars: 1500,
  /** Items whose text is nearly all link text (this share)… */
  listMaxLinkShare: 0.9,
  /** …and shorter than this on average are a menu, not a listing. */
  listBareItemChars: 40,
  /** On a page that says it is a listing, its item run replaces a chosen container holding less text. */
  listOverPrimary: 1,
} as const;

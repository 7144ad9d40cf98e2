/**
 * The extractor's knobs in one table: what each weighs and why. Every value was measured on the dev halves
 * of the extraction sets and checked on the held-out halves (bench/extraction-RESULTS.md gives the numbers
 * of each move); change one only with a run of `npx tsx bench/extract-dev.mjs` on both halves.
 */
export const SETTINGS = {
  // ── Scoring containers (Readability's algorithm, main-content.ts) ──
  /** A paragraph shorter than this earns its ancestors nothing (a caption, a button's label). */
  paragraphMinChars: 25,
  /** A paragraph earns one point per this many characters, beside one per comma… */
  charsPerPoint: 100,
  /** …up to this many length points: a single long block must not outscore many paragraphs. */
  maxLengthPoints: 3,
  /** A paragraph credits this many levels of ancestors (parent fully, grandparent half, then 1/(3·level)). */
  creditLevels: 5,
  /** Class/id names that speak for or against content (`POSITIVE`/`NEGATIVE`) weigh this much each. */
  nameWeight: 25,
  /** A name inside a heading, this many wrappers deep at most, is the heading's own (its link, its text span). */
  headingWrapperLevels: 3,
  /** schema.org `itemprop="articleBody"`: the publisher's own word for where the article is. */
  articleBodyWeight: 50,
  /** schema.org `itemprop="description"` (a product's, an offer's) weighs like a content name. */
  descriptionWeight: 25,

  // ── Choosing the top container (topCandidate) ──
  /** Runners-up looked at for a common ancestor. */
  runnersUp: 5,
  /** A runner-up scoring this share of the top is part of the same content… */
  closeScoreShare: 0.75,
  /** …and this many of them under one ancestor move the choice up to it (Readability's rule). */
  closeRunnersUp: 2,
  /** Climbing stops at an ancestor scoring under the top's score divided by this: chrome around the content. */
  ancestorFloorDivisor: 3,
  /** A parent scoring at least this share of the top holds more of the same article (intro, headline). */
  parentScoreShare: 0.9,

  // ── Siblings of the top container (withSiblings) ──
  /** A sibling scoring this share of the top (and at least `siblingMinScore`) continues the content. */
  siblingScoreShare: 0.2,
  siblingMinScore: 10,
  /** A sibling sharing the top's exact class list earns this share of the top score as a bonus. */
  sameClassBonusShare: 0.2,
  /** A sibling section whose best inner container scores this share of the top is another part of it… */
  sectionScoreShare: 0.6,
  /** …when under this link density (the question beside its answers, a description beside its details). */
  sectionMaxLinkDensity: 0.15,
  /** A lone sibling paragraph longer than this is kept under `paragraphMaxLinkDensity`… */
  siblingParagraphChars: 80,
  paragraphMaxLinkDensity: 0.25,

  // ── The lead before the content (leadBefore) ──
  /** Levels above the content searched for a lead in its own wrapper. */
  leadLevels: 4,
  /** A lead is short (a standfirst, not a second article)… */
  leadMaxChars: 600,
  /** …hardly linked… */
  leadMaxLinkDensity: 0.2,
  /** …and holds a sentence of running prose this long, almost unlinked. */
  leadParagraphMinChars: 80,
  leadParagraphMaxLinkDensity: 0.1,

  // ── Primary against fallback (index.ts) ──
  /** An `<article>` around the top is taken when it holds at most this multiple of its text… */
  articleWidenChars: 2,
  /** …under this link density. */
  articleWidenMaxLinkDensity: 0.3,
  /** A chosen content holding under this share of the page's unlinked text missed it: the prose region is taken… */
  primaryMissedShare: 0.2,
  /** …one holding this share kept it; in between, the region's extra text is weighed against the content. */
  primaryHeldShare: 0.7,
  /** On a declared listing the region's links are its items, not a menu to count against it: under this share of
   * the page's unlinked text the content (an intro, a lead story) did not hold the list, and the region is taken. */
  listingPrimaryShare: 0.6,
  /** The region is taken when what it adds is worth this share of what the content holds… */
  regionExtraWorth: 0.25,
  /** …a link character costing this many characters besides its own (a menu, a teaser grid adds only links)… */
  regionLinkPenalty: 1,
  /** …and a comma counting as this many characters (running sentences have them, menus and labels do not). */
  regionCommaChars: 20,
  /** The prose region narrows to a child holding this share of its parent's unlinked text. */
  regionProseShare: 0.85,
  /** Below this many characters the primary extraction probably lost the article (trafilatura's order)… */
  minPrimaryChars: 250,
  /** …and the names-blind pass wins when it finds this multiple of the primary's text. */
  looseOverPrimary: 2,

  // ── Pruning inside the content (prune.ts) ──
  /** A block shorter than this, without a heading, price or picture, is a fragment of chrome (a label, a button). */
  fragmentMaxChars: 25,
  /**
   * A line all in bold is a heading (bold-lines.ts) over running prose: a sentence's worth of words at least (a
   * code sample's lead-in, "Apply it to every client:", is one); "Trending now" stands over links or nothing…
   */
  boldLineProseMinChars: 50,
  /** …little of it linked (a row of teasers is links)… */
  boldLineProseMaxLinkDensity: 0.3,
  /** …next to the line or to one of the few boxes a site builder wraps it in. */
  boldLineWrapperLevels: 3,
  /** A block holding this share of the content's text stays whatever its name, unless mostly links… */
  pruneKeepShare: 0.3,
  pruneKeepMaxLinkDensity: 0.5,
  /** A block with this many commas (sentences) or any code block is content. */
  pruneKeepCommas: 10,
  /** Link density above which a block is a link list: a list, any other block, a content-named block. */
  pruneListLinkDensity: 0.8,
  pruneBlockLinkDensity: 0.33,
  pruneNamedLinkDensity: 0.6,
  /** On a product page a specification's value sits this many wrappers deep in its `<dd>` at most. */
  definitionWrapperLevels: 4,
  /** On a product page a short line of its buy box sits this many wrappers deep in its `<form>` at most. */
  buyBoxLevels: 8,

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
  /**
   * A chrome-named element this many levels below a card of a grid, named alike in the other cards, is the card's
   * part: component frameworks wrap a card's title block in four or five named layers ("item-card__body",
   * "item-card__signals__header")…
   */
  itemPartLevels: 5,
  /** …but on a thread only this many: a post's poster card, deep in the post and titled by the poster's name, is chrome. */
  threadItemPartLevels: 3,
  /** Elements looked at for a card part's heading: a card's title block is small. */
  itemPartScan: 200,
  /** A listing's head (its headline and intro, above the items) is short: a title and a line or two… */
  listingHeadMaxChars: 600,
  /** …and hardly linked (not a menu of sibling categories). */
  listingHeadMaxLinkShare: 0.5,
  /** A control in a listing's card (a label, a button) holding more text than this is the card made clickable. */
  cardControlMaxChars: 40,
  /** Items whose text is nearly all link text (this share)… */
  listMaxLinkShare: 0.9,
  /** …and shorter than this on average are a menu, not a listing. */
  listBareItemChars: 40,
  /** On a page that says it is a listing, its item run replaces a chosen container holding less text. */
  listOverPrimary: 1,
  /**
   * A page that declares no kind is a listing when its item run holds at least this share of the body's
   * text… At 0.5 an undeclared article beside a long archive list or news feed became its list
   * (trafilatura dev −0.004).
   */
  listUndeclaredShare: 0.6,
  /**
   * …and at least this share when the content chosen by its prose stands beside the run (an intro, or an
   * article beside a feed): at 0.7 an article beside a news column became it (trafilatura held-out −0.0006).
   */
  listUndeclaredBesideShare: 0.8,
  /**
   * …unless what stands beside the run is this many times smaller than it and carries no date or byline: a
   * welcome line or a heading over a home page's grid, not an article beside a feed.
   */
  listUndeclaredMinorBeside: 10,
  /**
   * …and that content holds less running prose than this (about two paragraphs of long, unlinked
   * sentences): a page with an article of its own is an article.
   */
  listUndeclaredMaxProse: 500,
  /**
   * On a page without running prose, the runs of alike items inside the chosen content are kept by pruning;
   * on a page that says it is an article only when their items hold at least this share of that content (a
   * short article's teaser grid cost the article set's held-out half a segment without this test).
   */
  articleListShare: 0.5,

  /**
   * A page with at most this many visible characters outside its header, menus and footer has no main content
   * (a script-rendered shop saved before its script ran): nothing is returned rather than its footer.
   */
  noContentMaxChars: 100,
  /** …unless its furniture holds a mostly unlinked paragraph this long: the page in a misnamed wrapper. */
  noContentProseChars: 120,

  /** On a product page, a heading this short over a short value is a specification's label ("Manufacturer"). */
  headedValueMaxLabelChars: 40,

  // ── Landing pages (landing-page.ts) ──
  /** A page that declares nothing is a stack of sections with at least this many section headings (h2, h3)… */
  landingMinHeadings: 5,
  /** …and under this share of its text as running prose (long unlinked paragraphs). */
  landingMaxProseShare: 0.5,
  /** A line this short that states a day is a post's date ("Letzte Änderung: 14.01.2022 um 09:25"). */
  landingDateLineMaxChars: 60,

  // ── Threads (poster-stats.ts) ──
  /** A label on at least this many term/definition rows of a thread is a statistic printed beside every post. */
  posterStatMinRows: 3,
  /** A statistic's value is short ("Feb 8, 2023", "6,696", a town)… */
  posterStatMaxChars: 60,
  /** …and so is its label ("Joined", "Reaction score"). */
  posterStatMaxLabelChars: 30,
  /** Elements of a poster's card looked at for the poster's name (a card is small; clean.ts). */
  posterCardScan: 200,
  /** A reply's quote is looked up in the thread above it as runs of this many words (repeated-quotes.ts)… */
  quoteShingleWords: 5,
  /** …when it has at least this many words (a short quote is a phrase the reply answers)… */
  quoteMinWords: 8,
  /** …and it repeats the thread when this share of its runs stands earlier on the page. */
  quoteSeenShare: 0.6,

  // ── A product's declared data (product-data.ts) ──
  /**
   * A declared description longer than this many characters (its markup counted) is refused whole: a shop's
   * product text runs to a few paragraphs, and past that the declaration is a dump (a whole catalogue, reviews,
   * a page's worth of hidden copy) that would outweigh the page it is added to. Cutting it would add text the
   * page never says in that shape.
   */
  declaredDescriptionMaxChars: 3000,
  /** A declared description shorter than this many words is a tagline the page shows in its own way. */
  declaredDescriptionMinWords: 20,
  /** The description is added when fewer than this share of its words are in the content already. */
  declaredDescriptionSaidShare: 0.5,

  // ── Author's card (author-bio.ts) ──
  /**
   * An author's card is looked for in this many blocks at the end of the content (and in its first block): it
   * closes the post, after which come at most a date line or a share row.
   */
  bioTailBlocks: 3,
  /** A byline longer than this is cut before its names are read (names are short; the rest is noise). */
  bylineMaxChars: 300,
  /** Content of fewer blocks than this is too short to carry an author's card besides the article. */
  bioMinBlocks: 5,
  /**
   * A card is a few sentences about the writer (the longest seen run to some 650 characters): a longer block
   * that opens with their name is the article's prose about them.
   */
  bioMaxChars: 700,

  // ── Forms' error states on product pages (form-states.ts) ──
  /** A block this short that reads as a form's error message ("Oops! Something went wrong.") is one; a longer one is prose. */
  formStateMaxChars: 200,

  // ── Sections a page carries twice (repeated-blocks.ts) ──
  /** A rendered block this long that says what an earlier one said is a second copy ("Add to cart" recurs by design). */
  repeatedBlockMinChars: 30,
  /** On a page of no declared kind, a run of at least this many blocks said again in order is a second copy (repeated-runs.ts); one block said twice there is documentation repeating a parameter under each signature. */
  repeatedRunMinBlocks: 3,

  // ── Prices and fade-ins ──
  /** A price is a short block of its own ("$30", "£64.00"): only elements this short are read as one (priced-items.ts). */
  priceMaxChars: 40,
  /** More main landmarks and h1s than this on a page and no one element is the page: none fades in (fade-in.ts). */
  fadeInMaxHeads: 16,
} as const;

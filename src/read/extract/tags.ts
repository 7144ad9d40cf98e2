// The extractor's tag lists, in one place and built from each other, so that a tag added to one kind of
// block is added to the kinds that contain it.

export const HEADINGS: ReadonlySet<string> = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

export const HEADING_LEVEL: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

const CELL_BLOCK_NAMES = ["table", "ul", "ol", "pre", "blockquote", ...HEADINGS];
/** Structure inside a table cell that makes the table a layout rather than data. */
export const CELL_STRUCTURE: ReadonlySet<string> = new Set(CELL_BLOCK_NAMES);

const TEXT_BLOCK_NAMES = [...CELL_BLOCK_NAMES, "p", "div", "section"];
/** Blocks that end a line of text: an element holding one is not a single line. */
export const TEXT_BLOCKS: ReadonlySet<string> = new Set(TEXT_BLOCK_NAMES);

const BLOCK_CHILD_NAMES = [
  ...TEXT_BLOCK_NAMES,
  "article",
  "dl",
  "form",
  "main",
  "figure",
  "header",
  "footer",
];
/** Children that make an element a wrapper of blocks rather than a paragraph to score. */
export const BLOCK_CHILDREN: ReadonlySet<string> = new Set(BLOCK_CHILD_NAMES);

/** Every element a browser lays out as a block: rendering puts a break around each. */
export const RENDER_BLOCKS: ReadonlySet<string> = new Set([
  ...BLOCK_CHILD_NAMES,
  ..."address aside body center dd details dir dt fieldset figcaption hgroup hr html li menu nav summary".split(
    " ",
  ),
  ..."tbody thead tfoot tr td th caption legend noscript".split(" "),
]);

/** Bold type: a line set all in it may be a heading as site builders write one. */
export const BOLD: ReadonlySet<string> = new Set(["strong", "b"]);

import { collapseWhitespace } from "./dom.js";
import { SETTINGS } from "./settings.js";

// What a note about the writer says right after their name ("Sara Coughlin is a writer and editor…",
// "Jean-Luc started CNX Software in 2010…").
const BIO_VERB =
  /^(?:is|was|has|had|started|founded|leads|writes|joined|covers|holds|brings|lives|serves|works|specializes|specialises)$/;

/**
 * Removes, at either end of the content, a block that opens with the byline's writer and a verb of a
 * biography: the author's card ("Rebecca Norris is a full-time freelance writer…"), which the article template
 * prints under every post. Only a person's name counts (two words or more: "Lauren" alone or a company's name
 * may be the article's subject); the card may use the full name or, at the tail only, the first name (a lede
 * about "Georgia" or "Microsoft" is the story, not its writer).
 */
export function dropAuthorBio(blocks: string[], byline: string | undefined): string[] {
  if (!byline || blocks.length < SETTINGS.bioMinBlocks) return blocks;
  const names = writers(byline);
  if (!names.length) return blocks;
  const tail = blocks.length - SETTINGS.bioTailBlocks;
  const kept = blocks.filter((block, i) => {
    if (i > 0 && i < tail) return true;
    if (block.length > SETTINGS.bioMaxChars) return true;
    return !opensWithWriter(block, names, i > 0);
  });
  return kept.length === blocks.length ? blocks : kept;
}

// Words that make a byline an organisation's ("Microsoft Security Team", "Reuters Staff", "QCY Official"): its
// first word is the company's or a place's name, which the article itself may open a sentence with.
const ORGANISATION_WORDS = new Set([
  "team",
  "staff",
  "desk",
  "newsroom",
  "editors",
  "editor",
  "editorial",
  "official",
  "press",
  "reporters",
  "correspondent",
  "correspondents",
  "writers",
  "contributors",
  "news",
  "media",
  "group",
  "bureau",
  "agency",
  "office",
  "board",
  "committee",
  "admin",
  "support",
  "marketing",
  "communications",
]);

/**
 * Each writer of a byline ("By A B, C D and E F, The Gazette") as their full name and, for a person, their
 * first name.
 */
function writers(byline: string): string[][] {
  const out: string[][] = [];
  // A byline is a few names: a longer one (a page's hostile metadata) is cut before any pattern reads it. The
  // cut must stay ahead of the split and the parentheses below: both backtrack on long runs of spaces or of
  // unclosed brackets (seconds on 100,000 characters), and are cheap on 300.
  const text = collapseWhitespace(byline.slice(0, SETTINGS.bylineMaxChars));
  for (const part of text.replace(/^by\s+/i, "").split(/\s*(?:,|;|&|\band\b)\s*/i)) {
    const words = part
      .replace(/\([^)]*\)/g, " ")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (words.length < 2 || words.length > 4 || !words.every((w) => /^\p{Lu}/u.test(w))) continue;
    // A first name alone stands for the writer only if it is written as one ("QCY" is a brand) and the byline
    // names a person, not a team.
    const person =
      /^\p{Lu}\p{Ll}/u.test(words[0]!) && !words.some((w) => ORGANISATION_WORDS.has(w.toLowerCase()));
    out.push(person ? [words.join(" "), words[0]!] : [words.join(" ")]);
  }
  return out;
}

// The card's own label before the name ("About the author: Craig Hull is…").
const CARD_LABEL = /^(?:about the (?:author|writer)|über (?:den autor|die autorin))\s*:?\s*/i;
// An apposition after the name ("Geri Mileva, an experienced network engineer…, specializes in…").
const APPOSITION = /^,\s+(?:a|an|the)\s/i;

/** `firstNames`: whether a writer's first name alone counts (at the tail, never in the content's first block). */
function opensWithWriter(block: string, names: string[][], firstNames: boolean): boolean {
  const text = block.replace(CARD_LABEL, "");
  for (const forms of names) {
    for (const name of firstNames ? forms : forms.slice(0, 1)) {
      if (!text.startsWith(name)) continue;
      const rest = text.slice(name.length);
      const next = rest.match(/^\s+(\p{L}+)/u);
      if ((next && BIO_VERB.test(next[1]!)) || APPOSITION.test(rest)) return true;
    }
  }
  return false;
}

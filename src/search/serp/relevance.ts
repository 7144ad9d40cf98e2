import type { ProviderHit } from "../provider.js";

// Function words carry no topic: a page of results sharing only "the" with the query shares nothing.
const STOPWORDS = new Set(
  (
    "a an and are as at be by can do does for from how i in is it its me my of on or our that the this to was " +
    "what when where which who why will with you your vs via der die das und ist ein eine von mit zu den le la les " +
    "des et un une du en el los las y de para por que"
  ).split(" "),
);

// Scripts written without spaces, and Korean, whose particles glue onto two-syllable words ("서울" ⇒ "서울의"):
// word overlap cannot be judged by splitting on spaces there, so the check abstains.
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Lower-cased words of two letters or more, stopwords removed. */
export function contentWords(text: string): string[] {
  const words = text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && !STOPWORDS.has(w));
  return [...new Set(words)];
}

function sameWord(queryWord: string, pageWord: string): boolean {
  if (queryWord === pageWord) return true;
  // Plurals and simple inflections either way: "tutorial" ~ "tutorials", "frameworks" ~ "framework".
  const [short, long] = queryWord.length <= pageWord.length ? [queryWord, pageWord] : [pageWord, queryWord];
  if (short.length >= 4 && long.startsWith(short) && long.length - short.length <= 3) return true;
  // Engines answer a typo with the corrected spelling ("javscript" ⇒ "javascript"): one edit on a word of five
  // letters or more, two on eight or more, still counts as the same word.
  const allowed = queryWord.length >= 8 ? 2 : queryWord.length >= 5 ? 1 : 0;
  return allowed > 0 && withinEdits(queryWord, pageWord, allowed);
}

/** Levenshtein distance ≤ max, computed row by row with an early exit. */
function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      best = Math.min(best, row[j]);
    }
    if (best > max) return false;
    previous = row;
  }
  return previous[b.length] <= max;
}

/**
 * Soft-block check. An engine that throttles a client sometimes answers with a full page of results for a
 * different query (Bing answered a pizza-shop query with ten pages about the word "popular"), so a page counts
 * as relevant only when its titles, snippets and URLs share a content word with the query, and at least two
 * distinct ones when the query has four or more.
 */
export function looksRelevant(query: string, hits: ProviderHit[]): boolean {
  if (UNSPACED_SCRIPT.test(query)) return true;
  const wanted = contentWords(query);
  if (wanted.length === 0) return true;
  const needed = wanted.length >= 4 ? 2 : 1;
  // Hit by hit, stopping as soon as enough query words are found: an honest page answers on its first title, and
  // this runs on every scraped page, so the rest of the page is neither split nor compared.
  const missing = new Set(wanted);
  const page = new Set<string>();
  for (const hit of hits)
    for (const seen of contentWords(`${hit.title} ${hit.snippet} ${hit.url}`)) {
      if (page.has(seen)) continue;
      page.add(seen);
      for (const word of missing) if (sameWord(word, seen)) missing.delete(word);
      if (wanted.length - missing.size >= needed) return true;
    }
  return false;
}

/**
 * Words that carry no subject in the languages our users speak most; a page sharing only these with the
 * question shares nothing with it.
 */
const STOPWORDS = new Set(
  (
    "the and for are was were with this that what which who whom whose when where why how does did done has have had " +
    "you your yours our ours their them they from into about than then there here not but can could would should will " +
    "shall may might must its it's also just only very more most some any all each every other such own same too " +
    "tell me show give find please today now latest current "
  )
    .concat(
      "der die das und ist sind war wer wie was wann warum welche welcher mit von für auf aus bei dem den des ein eine einer " +
        "che chi cosa come quando dove perché sono della delle degli una uno per con dal nel " +
        "les des une est sont qui quoi comment quand pourquoi avec pour dans sur par " +
        "los las una uno que qué como cómo cuando dónde por para con del " +
        "são uma que como quando onde por para com dos das",
    )
    .split(/\s+/)
    .filter(Boolean),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Unicode word tokens of at least three characters, lower-cased, minus stopwords. Chinese, Japanese and Korean
 * write without spaces, so their runs become character bigrams instead of one sentence-long "word".
 */
export function contentTokens(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (CJK.test(word)) {
      const chars = [...word].filter((c) => CJK.test(c));
      for (let i = 0; i + 1 < chars.length; i++) tokens.add(chars[i] + chars[i + 1]);
    } else if ([...word].length >= 3 && !STOPWORDS.has(word)) {
      tokens.add(word);
    }
  }
  return tokens;
}

/**
 * How many of the query's content tokens the text contains. Zero means the bytes are a cookie banner, a modal,
 * a paywall or a 404 whatever their shape: without the user's words they cannot answer the user.
 */
export function sharedTokens(query: string, text: string): number {
  const wanted = contentTokens(query);
  if (wanted.size === 0) return 1; // a query of only stopwords cannot judge relevance; let the page through
  const have = contentTokens(text);
  let n = 0;
  for (const w of wanted) if (have.has(w)) n++;
  return n;
}

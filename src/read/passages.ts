/**
 * Which paragraphs of a page match what a reader is after: BM25 over paragraphs, keyless and local, so
 * choosing passages adds no request and no model call.
 */

// Words about the page rather than its subject: "summarise the article on X" is about X. Verb families
// match as prefixes of the folded word; short nouns only whole, so "textile" or "pageant" stay.
const META_PREFIXES = [
  "describ",
  "descript",
  "descriz",
  "descrip",
  "beschreib",
  "summar",
  "overview",
  "riassun",
  "riassum",
  "sintesi",
  "sintetizz",
  "scritt",
  "scriv",
  "zusammenfass",
  "resum",
  "explain",
  "erklar",
  "spieg",
  "expliqu",
  "explic",
];
const META_WORDS = new Set(
  "about tell says said tldr page pages webpage website text texts testo texto article articles articolo artikel seite pagina document content contents contenu inhalt contenuto".split(
    " ",
  ),
);

const STOPWORDS = new Set(
  [
    // English
    "the a an and or of to in on at for with by from is are was were be been it its this that these those what",
    "which who whom how why when where does do did can could should would will me my we our you your i me please",
    "give show find get any some there their them they as into than then so not no yes all more most",
    // German
    "der die das den dem des ein eine einen einem einer und oder ist sind war was wie wo warum wer mit von zu im",
    "in auf für über dieser diese dieses es ich du sie wir bitte nicht auch",
    // Italian
    "il lo la le gli i un una uno e o di da del della dei delle nel nella per con su che chi come dove perché",
    "cosa questo questa quello quella è sono mi ci si non anche più sul sulla sullo sui sulle sugli al alla",
    "allo ai alle agli dal dalla dallo dai dalle nei nelle negli degli dello quale quali",
    // French, Spanish, Portuguese
    "le la les un une des et ou de du au aux en dans pour avec sur que qui quoi comment où est sont ce cette",
    "el los las y o del al en por para con que qué cómo dónde es son este esta lo se um uma os as do da em",
    "sur sous par sobre entre hasta desde cual cuál",
    // Arabic
    "في من على إلى الى عن ما هو هي هل كيف متى أين لماذا هذا هذه ذلك التي الذي و أو",
  ]
    .join(" ")
    .split(" ")
    .map(fold),
);

const CJK_LETTER = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const CJK = new RegExp(`[${CJK_LETTER}]`, "u");
const SCRIPT_RUN = new RegExp(`[${CJK_LETTER}]+|[^${CJK_LETTER}]+`, "gu");
const WORD = /[\p{L}\p{N}]+/gu;
// Long words keep their first six letters: plural and case endings mostly live past the sixth letter
// ("battery", "batteries"; "Akkus", "Akkulaufzeit" stay apart, which is the price of no dictionary).
const STEM_LENGTH = 6;

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFC").toLowerCase();
}

/** Folded words without stopwords; runs of CJK characters become character bigrams. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const [word] of fold(text).matchAll(WORD)) {
    for (const run of splitScripts(word)) {
      if (CJK.test(run)) out.push(...bigrams(run));
      else if (!STOPWORDS.has(run) && (run.length > 1 || /\d/.test(run))) out.push(run);
    }
  }
  return out;
}

/** Unicode word tokens in any language, stemmed; CJK as character bigrams. */
export function tokenize(text: string): string[] {
  return words(text).map(stem);
}

/** Splits a word where it changes between CJK and other scripts ("iPhone15の電池"). */
function splitScripts(word: string): string[] {
  return word.match(SCRIPT_RUN) ?? [];
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => chars[i] + c);
}

function stem(word: string): string {
  if (CJK.test(word)) return word;
  // Arabic writes the article into the word: "البطارية" is "ال" + "بطارية".
  const bare = /^(?:وال|بال|كال|فال|ال)\p{Script=Arabic}{3,}$/u.test(word)
    ? word.replace(/^[وبكف]?ال/u, "")
    : word;
  return [...bare].slice(0, STEM_LENGTH).join("");
}

/** The query's subject terms. A query of meta words only ("summarise this") has none. */
export function queryTerms(lookingFor: string): string[] {
  const subject = words(lookingFor).filter(
    (word) => !META_WORDS.has(word) && !META_PREFIXES.some((meta) => word.startsWith(meta)),
  );
  return [...new Set(subject.map(stem))];
}

const K1 = 1.2;
const B = 0.75;

/** BM25 score of each passage for `lookingFor`; 0 where a passage shares no subject term. */
export function scorePassages(passages: string[], lookingFor: string): number[] {
  const terms = queryTerms(lookingFor);
  if (terms.length === 0 || passages.length === 0) return passages.map(() => 0);
  const docs = passages.map((passage) => {
    const counts = new Map<string, number>();
    const tokens = tokenize(passage);
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return { counts, length: tokens.length };
  });
  const avgLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const idf = new Map(
    terms.map((term) => {
      const df = docs.filter((doc) => doc.counts.has(term)).length;
      return [term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5))];
    }),
  );
  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.counts.get(term) ?? 0;
      if (tf === 0) continue;
      score += (idf.get(term)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avgLength));
    }
    return score;
  });
}

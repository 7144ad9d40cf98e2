// Invisible characters a reader never sees, in prose and in code alike ("Trojan Source" hides code behind bidi
// overrides): zero-width space, word joiner and invisible operators, BOM (they glue onto words: "retries\u200b"
// after a heading's empty permalink), bidi embeddings, overrides and isolates (they reorder what a reader sees
// against what a model reads) and Unicode tag characters (whole sentences can be written in them, invisibly:
// "ASCII smuggling"). ZWJ/ZWNJ stay: they shape Indic and Arabic script and emoji; LRM/RLM stay: they only place
// punctuation in right-to-left text; soft hyphens stay: they are where words may break (removing them cost 0.001
// on the trafilatura set's dev half, whose reference text keeps them).
const INVISIBLE = /[\u200b\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/gu;

export function dropInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

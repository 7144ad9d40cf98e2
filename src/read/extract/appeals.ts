import type { AnyNode, Element } from "./dom.js";
import { collapseWhitespace, findFirst, isTag, removeNodes, textContent, walkElements } from "./dom.js";
import { unionPattern } from "./pattern-union.js";
import { HEADINGS } from "./tags.js";
import type { TextStatsIndex } from "./text-stats.js";

// Sentences that address the reader about the site rather than the subject: appeals to support, subscribe
// or sign up, paywall and login notices, consent notices. Each pattern needs the site's voice ("our",
// "us", "Sie/du" with the site's action) so that a sentence reporting on such things stays.

// The start of a sentence: where an imperative ("Subscribe …", "Become a member …") addresses the reader.
const SENTENCE_START = String.raw`(?:^|[.!?:;»"“”|]\s*|\+\+\+\s*|[–—-]\s+)`;

// Support and subscription appeals, paywall notices.
const SUPPORT = new RegExp(
  [
    String.raw`\bif you (?:enjoyed|liked|value|appreciate)(?: reading)? (?:this|our) (?:post|article|story|piece|roundup|content|work|journalism|reporting)\b`,
    String.raw`\b(?:would you|please) consider (?:supporting|donating|subscribing|becoming)\b`,
    String.raw`\bsupport our (?:work|journalism|reporting|mission|newsroom)\b`,
    String.raw`${SENTENCE_START}become an? (?:member|patron|supporter|subscriber)\b`,
    String.raw`\bto (?:view|read|continue reading|access) (?:the full|this|the rest of this) (?:story|article)\b[^.!?]{0,40}\b(?:subscribe|log in|sign in|register)`,
    String.raw`\b(?:you(?:'|’)re|you are) already an? (?:subscriber|member)\b`,
    String.raw`\bwenn (?:ihnen|dir|euch) (?:unser|dieser|der) (?:artikel|beitrag|text) gefallen hat`,
    String.raw`\bgefällt (?:dir|ihnen|euch) unsere? \p{L}*(?:magazin|blog|artikel|beitrag|angebot|journalismus|inhalte?|arbeit|podcast)\b`,
    String.raw`\bunterstützen sie (?:uns|unsere arbeit|diese form des journalismus|unabhängigen journalismus)\b`,
    String.raw`\bunterstütze (?:uns|unsere arbeit)\b`,
    String.raw`\bwesprzyj nas\b`,
    String.raw`\bhazte (?:miembro|socio|suscriptor)\b`,
    String.raw`\bapoya nuestro periodismo\b|\bapóyanos\b`,
    String.raw`\bsoutenez(?:-nous| notre)\b`,
  ].join("|"),
  "u",
);

const OUR = "(?:our|my|unseren?|meinen?|notre|nuestro|il nostro|nasz)";

// Sign-up appeals: a newsletter in the site's voice ("our", "unseren") or as an imperative, app downloads.
const SIGN_UP = new RegExp(
  [
    String.raw`\b(?:sign|subscrib|abonn|anmeld|melde|registr|inscri|iscriv|zapisz|join)\p{L}*\b[^.!?]{0,60}\b${OUR}\s+\p{L}*[- ]?newsletter`,
    String.raw`\b${OUR}\s+\p{L}*[- ]?newsletter\b[^.!?]{0,60}\b(?:sign|subscrib|abonn|anmeld|bestell|registr)`,
    String.raw`${SENTENCE_START}(?:sign up|subscribe|inscr[íi]bete|abonnez-vous|iscriviti|zapisz się)\b[^.!?]{0,50}newsletter`,
    String.raw`\b(?:abonnieren sie|abonniere|melde dich|melden sie sich|registrieren sie sich)\b[^.!?]{0,50}newsletter`,
    String.raw`${SENTENCE_START}newsletter (?:abonnieren|bestellen)\b`,
    String.raw`\bin (?:deinen|euren) posteingang\b`,
    // "Follow us on Facebook and Instagram", "Folgen Sie uns auf Telegram": the site's social accounts.
    String.raw`(?:^|[.!?:;»"“”|]\s*|\b(?:und|and|oder|or|y|et|e|i)\s)(?:follow us|folgen sie uns|folge uns|folgt uns|síguenos|suivez-nous|seguici|obserwuj nas)\b[^.!?]{0,60}\b(?:facebook|twitter|instagram|linkedin|youtube|tiktok|telegram|mastodon|threads|pinterest|whatsapp|bluesky)\b`,
    String.raw`\brss[- ]feeds? (?:abonnieren|subscribe)\b|\bsubscribe to (?:our|the|this) (?:rss )?feed\b`,
    // A magazine's promotion of its current issue.
    String.raw`\b(?:die )?aktuelle ausgabe\b[^.!?]{0,80}\b(?:erhältlich|im abo|am kiosk|bahnhofskiosk)\b|\b(?:current|latest) issue\b[^.!?]{0,60}\b(?:on sale|on newsstands|available now)\b`,
  ].join("|"),
  "u",
);

// Notices about the page's own machinery: comments closed, not logged in, cookies, consent for embeds.
const NOTICE = new RegExp(
  [
    String.raw`\b(?:kommentare sind|kommentarfunktion (?:ist|wurde))\b[^.!?]{0,30}\b(?:geschlossen|deaktiviert)\b`,
    String.raw`\bcomments (?:are|have been) (?:closed|disabled)\b`,
    String.raw`\bles commentaires sont fermés\b|\blos comentarios están cerrados\b|\bi commenti sono chiusi\b|\bkomentarze (?:są )?(?:zamknięte|wyłączone)\b`,
    String.raw`\b(?:sie sind|du bist) (?:aktuell |derzeit |noch )?nicht (?:eingeloggt|angemeldet)\b`,
    String.raw`\byou (?:are|(?:'|’)re) not (?:logged|signed) in\b`,
    // "Log in to comment" in the words WordPress, Drupal and forum software print under a thread.
    String.raw`\byou (?:must|need to) (?:be )?(?:logged|signed) in to (?:post|leave|write|add|reply|comment)\b`,
    String.raw`\b(?:log|sign) in (?:or register )?to (?:post|leave|write|add) (?:a )?comments?\b`,
    String.raw`\b(?:sie müssen|du musst) (?:sich |dich )?(?:eingeloggt|angemeldet|einloggen|anmelden)(?: sein)?,? um\b`,
    String.raw`\bvous devez être connecté(?:e)? pour (?:publier|poster|laisser|rédiger)\b`,
    String.raw`\bdebes (?:estar conectado|iniciar sesión) para (?:publicar|dejar|escribir)\b`,
    String.raw`\bdevi essere connesso per (?:inviare|pubblicare|lasciare)\b`,
    String.raw`\bmusisz być zalogowany,? aby\b`,
    // An author box's link to the author's archive ("View all posts by …").
    String.raw`${SENTENCE_START}(?:(?:view|see) all posts by|zeige alle beiträge von|alle beiträge von\b[^.!?]{1,40}\banzeigen|voir tous les articles de|ver todas las entradas de|vedi tutti gli articoli di)\b`,
    // Login and presence widgets: "Passwort vergessen?", "13 Besucher sind online".
    String.raw`\b(?:passwor[dt] vergessen|forgot (?:your )?password|mot de passe oubli|olvidaste (?:tu|su) contraseña|nie pamiętasz hasła|password dimenticata)\b`,
    String.raw`(?<![\d.,])\d+ (?:besucher|gäste|mitglieder|benutzer|users|visitors|guests|members) (?:sind |are |is )?online\b`,
  ].join("|"),
  "u",
);

// Disclosures about the page, not its subject: affiliate commissions, "opinions are the author's own".
const DISCLOSURE = new RegExp(
  [
    String.raw`\bwe (?:may )?(?:receive|earn|get) (?:a )?(?:small )?(?:compensation|commission)\b`,
    String.raw`\badvertisers? (?:do not|don(?:'|’)t|does not|doesn(?:'|’)t) influence\b`,
    String.raw`\b(?:contains|may contain) affiliate links?\b|\bas an amazon associate\b`,
    String.raw`\b(?:opinions|views) expressed (?:here|in this (?:article|post|blog|column)|by (?:the )?(?:author|contributors?))\b`,
    String.raw`\b(?:erhalten|bekommen|verdienen) wir (?:ggf\. |gegebenenfalls |unter umständen |dafür |hierfür )?eine (?:kleine )?provision\b`,
    String.raw`\b(?:affiliate|partner)-?links?\b[^.!?]{0,80}\bprovision\b`,
    String.raw`\bkennzeichnen wir mit (?:einem )?(?:sternchen|\*)`,
    String.raw`\bgibt (?:nicht )?(?:unbedingt |zwingend |notwendigerweise )?die meinung der redaktion wieder\b`,
    String.raw`\bn(?:'|’)engagent que (?:leurs?|son|ses) auteurs?\b`,
    String.raw`\blas opiniones expresadas\b[^.!?]{0,80}\b(?:son|no)\b`,
    // "SUGGESTED CITATION Sauer, Heiko: …, 2020, https://…": how to cite the page, a template block under
    // every article (the label, then a reference with a year or an address).
    String.raw`^(?:suggested citation|zitiervorschlag|zitierhinweis|cite this (?:article|page|post)|how to cite this (?:article|page|post)|comment citer cet article|cómo citar este artículo|jak cytować ten artykuł)\b(?=.*(?:\b(?:19|20)\d\d\b|https?:))`,
  ].join("|"),
  "u",
);

// Widgets that ask about the page or count its reactions: feedback, edit links, ratings, comment counts.
const WIDGET = new RegExp(
  [
    String.raw`\b(?:was this (?:page|article|post|answer|information) (?:helpful|useful)|did you find this (?:page |article |post )?(?:helpful|useful))\b`,
    String.raw`\b(?:war|ist) (?:diese[rs]?|der|die) (?:artikel|beitrag|seite|text|antwort|information(?:en)?) hilfreich\b`,
    String.raw`\b(?:te|le) (?:ha )?(?:resultado|resultó|fue) útil\b|\bcet article vous a-t-il été utile\b|\bquesto articolo (?:ti )?è stato utile\b|\bczy (?:ten artykuł|ta strona) (?:był[ao]?|jest) pomocn[ya]\b`,
    String.raw`${SENTENCE_START}(?:edit this page|improve this page|suggest an edit|diese seite bearbeiten)\b`,
    String.raw`${SENTENCE_START}(?:rate this (?:article|post|recipe|page)|bewerten sie diese[nr]? (?:artikel|beitrag|rezept|seite)|(?:artikel|beitrag|rezept) bewerten)\b`,
    String.raw`\b\d(?:[.,]\d{1,2})? (?:von|out of|of|de|sur|su|z) 5(?: (?:sternen|stars|étoiles|estrellas|stelle|gwiazdek))?\s*\(?\d+ (?:stimmen|bewertungen|votes|ratings|reviews|avis|votos|voti|głosów|ocen)\b`,
    String.raw`^(?:\d+ (?:kommentare?|comments?|antworten|replies|comentarios?|commentaires?|commenti|komentarz[ey]?)|(?:kommentare|comments)(?: insgesamt| total)?:\s*\d+)$`,
  ].join("|"),
  "u",
);

// Consent notices: also the subject of a cookie policy, whose paragraphs say "We use cookies to …".
const COOKIES = new RegExp(
  [
    String.raw`\b(?:we|this (?:site|website)) uses? cookies\b|\bwir (?:verwenden|nutzen|setzen) cookies\b|\bdiese (?:website|webseite|seite) (?:verwendet|nutzt) cookies\b`,
    String.raw`\bkorzystamy z (?:plików )?cookies\b|\b(?:utilizamos|usamos) cookies\b|\bnous utilisons des cookies\b|\butilizziamo (?:i )?cookie\b`,
  ].join("|"),
  "u",
);

// Words that are an appeal or a notice in a box by the article and a report or an instruction in it:
// "“Support us,” the strikers chanted", "Click “Forgot your password?” below the sign-in button",
// "Phishing emails go straight to your inbox".
const CONTEXTUAL = new RegExp(
  [
    String.raw`${SENTENCE_START}(?:please )?support us\b(?![,!]?["”’])`,
    String.raw`\bstraight to your (?:inbox|phone)\b`,
  ].join("|"),
  "u",
);

// Consent for embeds in the site's voice: "Wir respektieren deine Privatsphäre und stellen deshalb ohne dein
// Einverständnis keine Verbindung zu Twitter her."
const CONSENT = /\bohne (?:dein|ihr) einverständnis\b/u;

// Anywhere in the content: wordings in the site's own voice.
const APPEAL = [SUPPORT, SIGN_UP, DISCLOSURE, CONSENT];
// Only in a box with a control (a link, a button, a form field) or by the edges of the article's prose.
const SITE_NOTICE = [NOTICE, WIDGET, CONTEXTUAL];

// Every pattern above as one: most blocks match none, and one scan of a block costs less than eight.
const ANY = unionPattern([...APPEAL, ...SITE_NOTICE, COOKIES], SENTENCE_START);

// A paragraph this long (whitespace-free characters), mostly unlinked, is the article's running prose.
const PROSE_CHARS = 150;
// A cookie policy talks about cookies throughout; a consent notice names them once or twice.
const COOKIE_TOPIC = 5;
const CONTROLS = new Set("a input button select textarea form label".split(" "));

// Longer than this, a block is a paragraph of the article that happens to mention such things.
const MAX_APPEAL_CHARS = 400;

// Block elements only: an inline element ("the link <span>“Forgot your password?”</span> under the form")
// is part of a sentence, and one that is a block's whole text is tested as that block.
const TEXT_BLOCKS: ReadonlySet<string> = new Set([
  ..."p div li blockquote section aside dd figcaption".split(" "),
  ...HEADINGS,
]);
// An inline element that is a whole line of its block (between <br>s) is a block of its own.
const INLINE = new Set("span strong em b small".split(" "));

function isLine(el: Element): boolean {
  for (let e: Element | null = el; e && INLINE.has(e.name); e = e.parent && isTag(e.parent) ? e.parent : null)
    if (!apartFromText(e)) return false;
  return true;
}

function apartFromText(el: Element): boolean {
  const apart = (n: AnyNode | null, step: (n: AnyNode) => AnyNode | null): boolean => {
    for (; n; n = step(n)) {
      if (isTag(n)) return n.name === "br";
      if (collapseWhitespace(textContent(n))) return false;
    }
    return true;
  };
  return apart(el.prev, (n) => n.prev) && apart(el.next, (n) => n.next);
}
const BLOCK_CHILDREN = new Set(
  "p div ul ol table section blockquote pre h1 h2 h3 h4 h5 h6 li figure article aside dl".split(" "),
);

/** True when a short block of text is an appeal to the reader or a notice about the site. */
function isAppeal(text: string, siteNotices = true, cookies = () => true): boolean {
  if (text.length > MAX_APPEAL_CHARS) return false;
  // The patterns are written in lower case: matching a lower-cased text is ~10× faster than the `i` flag.
  const lower = text.toLowerCase();
  if (!ANY.test(lower)) return false;
  if (APPEAL.some((re) => re.test(lower))) return true;
  if (!siteNotices) return false;
  return SITE_NOTICE.some((re) => re.test(lower)) || (COOKIES.test(lower) && cookies());
}

/**
 * Pre-order positions of the content's elements and the span of its running prose: a site notice sits
 * before the article's first long paragraph or after its last one, or comes with a control. Numbered at the
 * first question only (most pages hold no appeal to ask about): the caller removes nothing before its walk ends.
 */
function proseSpan(roots: Element[], stats: TextStatsIndex) {
  const start = new Map<Element, number>();
  const end = new Map<Element, number>();
  let n = 0;
  let first: Element | undefined;
  let last: Element | undefined;
  const number = (el: Element): void => {
    start.set(el, n++);
    if (el.name === "p" && stats.of(el).chars >= PROSE_CHARS && stats.linkDensity(el) < 0.2) {
      first ??= el;
      last = el;
    }
    for (const c of el.children) if (isTag(c)) number(c);
    end.set(el, n - 1);
  };
  let numbered = false;
  return {
    /** Outside the prose: wholly before the first long paragraph or after the last one. */
    atEdge(el: Element): boolean {
      if (!numbered) for (const root of roots) number(root);
      numbered = true;
      if (!first || !last) return true;
      return end.get(el)! < start.get(first)! || start.get(el)! > end.get(last)!;
    },
  };
}

/**
 * Removes the smallest text blocks of the content that are appeals or site notices. A root that is itself
 * such a block (the content is often a run of sibling paragraphs) leaves the `roots` array.
 */
export function dropAppeals(roots: Element[], stats: TextStatsIndex): void {
  const doomed = new Set<Element>();
  const span = proseSpan(roots, stats);
  // The content's whole text is read only for a block that speaks of cookies.
  let cookieMentions: number | undefined;
  const cookies = () => {
    cookieMentions ??= roots.reduce((k, r) => k + (textContent(r).match(/cookie/gi)?.length ?? 0), 0);
    return cookieMentions < COOKIE_TOPIC;
  };
  const visit = (el: Element): boolean => {
    // Whitespace-free characters bound the text from below: a larger block is not one appeal.
    if (stats.of(el).chars > MAX_APPEAL_CHARS) return true;
    if (!TEXT_BLOCKS.has(el.name) && !(INLINE.has(el.name) && isLine(el))) return true;
    const text = collapseWhitespace(textContent(el));
    if (text.length > MAX_APPEAL_CHARS) return true;
    if (!isAppeal(text, true, cookies)) return false;
    // The smallest block holding the appeal goes, not its neighbours.
    if (findFirst(el, (d) => BLOCK_CHILDREN.has(d.name))) return true;
    const notice = span.atEdge(el) || !!findFirst(el, (d) => CONTROLS.has(d.name));
    if (notice || isAppeal(text, false)) doomed.add(el);
    return false;
  };
  for (const root of roots) if (visit(root)) walkElements(root, visit);
  removeNodes(doomed);
  for (let i = roots.length - 1; i >= 0; i--) if (doomed.has(roots[i]!)) roots.splice(i, 1);
}

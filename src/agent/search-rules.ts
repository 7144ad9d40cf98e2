/**
 * The local rules of shouldSearch: one table per language, each rule a name and a pattern over the lower-cased
 * message. "stay" rules (answerable on the device or by the model alone) are checked before "search" rules, so
 * "write a poem about today" stays while "what's on today" searches. A message matching neither is ambiguous.
 * `timely` marks live facts whose answer changes from year to year (prices, news, sports, "latest"), where a
 * planned query gains the current year; weather and "near me" change by the hour and the place, not the year.
 */
export type RuleKind = "stay" | "search";
interface Rule {
  name: string;
  kind: RuleKind;
  pattern: RegExp;
  timely?: boolean;
}

// A whole message of numbers and operators, in any language.
const BARE_ARITHMETIC = /^[\s\d.,+\-*/×÷^%()=?x]+$/u;

const TABLES: Record<string, Rule[]> = {
  en: [
    {
      name: "arithmetic",
      kind: "stay",
      pattern: /\b(what'?s|what is|how much is|calculate|compute)\s+[\d(]/,
    },
    {
      name: "arithmetic",
      kind: "stay",
      pattern: /\d\s*(plus|minus|times|divided by|multiplied by)\s*\d|square root of \d/,
    },
    { name: "alarm", kind: "stay", pattern: /\b(alarm|timer|remind me|reminder|wake me)\b/ },
    {
      name: "device-command",
      kind: "stay",
      pattern:
        /^(please\s+)?(turn|switch) (on|off|up|down)\b|\b(turn|switch) (the )?\w+ (on|off)\b|^(please\s+)?(play|pause|stop|skip|resume|mute|unmute|call|text|open|launch|dim|brighten)\b|\b(volume|brightness) (up|down|to)\b/,
    },
    {
      name: "device-info",
      kind: "stay",
      pattern:
        /\b(my (battery|phone|device|storage|wifi|bluetooth|ip address)|battery level|what time is it|what'?s the time|what day is (it|today)|what'?s today'?s date)\b/,
    },
    {
      name: "writing",
      kind: "stay",
      pattern:
        /^(please\s+)?(can you\s+|could you\s+)?(write|rewrite|rephrase|reword|translate|summari[sz]e|proofread|edit|draft|compose|correct|paraphrase|shorten|make (this|it) (shorter|longer|more))\b/,
    },
    {
      name: "chat",
      kind: "stay",
      pattern:
        /^(hi|hello|hey|thanks|thank you|good (morning|night|evening)|how are you|tell me a (joke|story)|who are you|what'?s your name|i love you|bye)\b/,
    },
    {
      name: "weather",
      kind: "search",
      pattern: /\b(weather|forecast|rain(ing)?|snow(ing)?|temperature outside|humidity)\b/,
    },
    {
      name: "prices",
      kind: "search",
      timely: true,
      pattern:
        /\b(price|prices|cost of|stock|shares?|exchange rate|bitcoin|crypto|how much (is|are|does) (a|an|the)\s)/,
    },
    { name: "news", kind: "search", timely: true, pattern: /\b(news|headlines?|breaking|what happened)\b/ },
    {
      name: "sports",
      kind: "search",
      timely: true,
      pattern: /\b(score|scores|who won|match|fixture|standings|league table|kick-?off)\b/,
    },
    { name: "near-me", kind: "search", pattern: /\b(near me|nearby|open now|around here|closest)\b/ },
    {
      name: "recency",
      kind: "search",
      timely: true,
      pattern:
        /\b(today|tonight|now|right now|latest|current|currently|this week|yesterday|tomorrow|recent|newest)\b/,
    },
  ],
  de: [
    {
      name: "arithmetic",
      kind: "stay",
      pattern: /\b(was ist|wie ?viel (ist|sind|macht)|rechne|berechne)\s+[\d(]/,
    },
    {
      name: "arithmetic",
      kind: "stay",
      pattern: /\d\s*(plus|minus|mal|geteilt durch|durch)\s*\d|wurzel aus \d/,
    },
    { name: "alarm", kind: "stay", pattern: /\b(wecker|timer|weck mich|erinnere mich|erinnerung|alarm)\b/ },
    {
      name: "device-command",
      kind: "stay",
      pattern:
        /\b(mach|schalte?|dreh)\b.*\b(an|aus|ein|lauter|leiser|heller|dunkler)\b|^(spiel|spiele|pausiere|stopp|ruf|rufe|öffne|starte)\b|\b(lauter|leiser)\b/,
    },
    {
      name: "device-info",
      kind: "stay",
      pattern:
        /\b(mein(e|en)? (akku|handy|speicher|wlan|telefon)|akkustand|wie spät ist es|welcher tag ist heute|wie viel uhr)\b/,
    },
    {
      name: "writing",
      kind: "stay",
      pattern:
        /^(bitte\s+)?(kannst du\s+)?(schreib|schreibe|formulier|übersetz|übersetze|fasse|korrigier|korrigiere|verfasse|kürze)\b|\b(umformulieren|übersetzen|zusammenfassen)\b/,
    },
    {
      name: "chat",
      kind: "stay",
      pattern:
        /^(hallo|hi|hey|danke|guten (morgen|abend|tag)|gute nacht|wie geht'?s|wie geht es dir|erzähl mir einen witz|wer bist du|tschüss)\b/,
    },
    {
      name: "weather",
      kind: "search",
      pattern: /\b(wetter|wettervorhersage|vorhersage|regnet|regen|schnee|schneit|temperatur draußen)\b/,
    },
    {
      name: "prices",
      kind: "search",
      timely: true,
      pattern: /\b(preis|preise|kostet|kurs|aktie|aktien|wechselkurs|bitcoin)\b/,
    },
    {
      name: "news",
      kind: "search",
      timely: true,
      pattern: /\b(nachrichten|neuigkeiten|schlagzeilen|was ist passiert)\b/,
    },
    {
      name: "sports",
      kind: "search",
      timely: true,
      pattern: /\b(spielstand|ergebnis|ergebnisse|wer hat gewonnen|tabelle|bundesliga)\b/,
    },
    {
      name: "near-me",
      kind: "search",
      pattern: /\b(in meiner nähe|in der nähe|hier in der gegend|geöffnet)\b/,
    },
    {
      name: "recency",
      kind: "search",
      timely: true,
      pattern:
        /\b(heute|heute abend|jetzt|gerade|aktuell|aktuelle[nrs]?|neueste[nrs]?|gestern|morgen|diese woche)\b/,
    },
  ],
  it: [
    { name: "arithmetic", kind: "stay", pattern: /\b(quanto fa|quanto è|calcola|quant'è)\s*[\d(]/ },
    { name: "arithmetic", kind: "stay", pattern: /\d\s*(più|meno|per|diviso)\s*\d|radice quadrata di \d/ },
    { name: "alarm", kind: "stay", pattern: /\b(sveglia|timer|ricordami|promemoria|svegliami)\b/ },
    {
      name: "device-command",
      kind: "stay",
      pattern: /^(accendi|spegni|alza|abbassa|metti|riproduci|chiama|apri|avvia|ferma)\b|\b(volume)\b/,
    },
    {
      name: "device-info",
      kind: "stay",
      pattern:
        /\b(batteria|la mia (memoria|rete)|che ore sono|che ora è|che giorno è oggi|il mio telefono)\b/,
    },
    {
      name: "writing",
      kind: "stay",
      pattern:
        /^(per favore\s+)?(puoi\s+)?(scrivi|scrivimi|riscrivi|riformula|traduci|tradurre|riassumi|correggi|componi|accorcia)\b/,
    },
    {
      name: "chat",
      kind: "stay",
      pattern:
        /^(ciao|salve|grazie|buongiorno|buonasera|buonanotte|come stai|raccontami una barzelletta|chi sei)\b/,
    },
    {
      name: "weather",
      kind: "search",
      pattern: /\b(meteo|previsioni|piove|pioverà|neve|nevica|che tempo fa)\b/,
    },
    {
      name: "prices",
      kind: "search",
      timely: true,
      pattern: /\b(prezzo|prezzi|quanto costa|costo|quotazione|azioni|borsa|cambio|bitcoin)\b/,
    },
    {
      name: "news",
      kind: "search",
      timely: true,
      pattern: /\b(notizie|novità|titoli|cosa è successo|ultim'ora)\b/,
    },
    {
      name: "sports",
      kind: "search",
      timely: true,
      pattern: /\b(risultato|risultati|chi ha vinto|classifica|partita|serie a)\b/,
    },
    {
      name: "near-me",
      kind: "search",
      pattern: /\b(vicino a me|qui vicino|nelle vicinanze|aperto adesso)\b/,
    },
    {
      name: "recency",
      kind: "search",
      timely: true,
      pattern: /\b(oggi|stasera|adesso|ora|attuale|attualmente|ultim[aeio]|ieri|domani|questa settimana)\b/,
    },
  ],
  es: [
    { name: "arithmetic", kind: "stay", pattern: /\b(cuánto es|cuanto es|cuánto son|calcula)\s+[\d(]/ },
    { name: "arithmetic", kind: "stay", pattern: /\d\s*(más|menos|por|entre|dividido por)\s*\d/ },
    { name: "alarm", kind: "stay", pattern: /\b(alarma|temporizador|recuérdame|recordatorio|despiértame)\b/ },
    {
      name: "device-command",
      kind: "stay",
      pattern: /^(enciende|apaga|sube|baja|pon|reproduce|llama|abre|pausa)\b/,
    },
    { name: "device-info", kind: "stay", pattern: /\b(batería|qué hora es|mi teléfono|qué día es hoy)\b/ },
    {
      name: "writing",
      kind: "stay",
      pattern: /^(por favor\s+)?(puedes\s+)?(escribe|escríbeme|reescribe|traduce|resume|corrige|redacta)\b/,
    },
    {
      name: "chat",
      kind: "stay",
      pattern: /^(hola|gracias|buenos días|buenas noches|qué tal|cómo estás|cuéntame un chiste|quién eres)\b/,
    },
    { name: "weather", kind: "search", pattern: /\b(tiempo hace|clima|pronóstico|llueve|lloverá|nieva)\b/ },
    {
      name: "prices",
      kind: "search",
      timely: true,
      pattern: /\b(precio|precios|cuánto cuesta|cotización|acciones|bolsa|tipo de cambio|bitcoin)\b/,
    },
    { name: "news", kind: "search", timely: true, pattern: /\b(noticias|titulares|qué pasó)\b/ },
    {
      name: "sports",
      kind: "search",
      timely: true,
      pattern: /\b(resultado|marcador|quién ganó|clasificación|partido)\b/,
    },
    { name: "near-me", kind: "search", pattern: /\b(cerca de mí|cerca de aquí|abierto ahora)\b/ },
    {
      name: "recency",
      kind: "search",
      timely: true,
      pattern: /\b(hoy|esta noche|ahora|actual|actualmente|últim[oa]s?|ayer|mañana|esta semana)\b/,
    },
  ],
  fr: [
    { name: "arithmetic", kind: "stay", pattern: /\b(combien font|combien fait|calcule)\s+[\d(]/ },
    { name: "arithmetic", kind: "stay", pattern: /\d\s*(plus|moins|fois|divisé par)\s*\d/ },
    { name: "alarm", kind: "stay", pattern: /\b(réveil|minuteur|rappelle-moi|rappel|réveille-moi)\b/ },
    {
      name: "device-command",
      kind: "stay",
      pattern: /^(allume|éteins|monte|baisse|mets|joue|appelle|ouvre)\b/,
    },
    {
      name: "device-info",
      kind: "stay",
      pattern: /\b(batterie|quelle heure est-il|mon téléphone|quel jour sommes-nous)\b/,
    },
    {
      name: "writing",
      kind: "stay",
      pattern:
        /^(s'il te plaît\s+)?(peux-tu\s+)?(écris|écrit|réécris|reformule|traduis|résume|corrige|rédige)\b/,
    },
    {
      name: "chat",
      kind: "stay",
      pattern:
        /^(bonjour|salut|merci|bonsoir|bonne nuit|comment ça va|comment vas-tu|raconte-moi une blague|qui es-tu)\b/,
    },
    { name: "weather", kind: "search", pattern: /\b(météo|prévisions|pleut|pleuvoir|neige|quel temps)\b/ },
    {
      name: "prices",
      kind: "search",
      timely: true,
      pattern: /\b(prix|combien coûte|cours|action|actions|bourse|taux de change|bitcoin)\b/,
    },
    {
      name: "news",
      kind: "search",
      timely: true,
      pattern: /\b(actualités|nouvelles|infos|gros titres|que s'est-il passé)\b/,
    },
    {
      name: "sports",
      kind: "search",
      timely: true,
      pattern: /\b(score|résultat|qui a gagné|classement|match)\b/,
    },
    { name: "near-me", kind: "search", pattern: /\b(près de moi|à proximité|ouvert maintenant)\b/ },
    {
      name: "recency",
      kind: "search",
      timely: true,
      pattern:
        /\b(aujourd'hui|ce soir|maintenant|actuel(le)?|actuellement|derni(er|ère)s?|hier|demain|cette semaine)\b/,
    },
  ],
};

// JavaScript's \b knows only ASCII letters, so "novità" or "übersetzen" would never match at their edges:
// every table's \b becomes a Unicode letter boundary. Compiling those patterns takes tens of milliseconds, so
// it happens at the first message classified, not when the package is imported.
const LETTER = "[\\p{L}\\p{N}_]";
const UNICODE_BOUNDARY = `(?:(?<!${LETTER})(?=${LETTER})|(?<=${LETTER})(?!${LETTER}))`;
const unicodeWords = (re: RegExp) => new RegExp(re.source.replaceAll("\\b", UNICODE_BOUNDARY), "u");
let compiled: typeof TABLES | undefined;
function tables(): typeof TABLES {
  if (!compiled) {
    for (const rules of Object.values(TABLES))
      for (const rule of rules) rule.pattern = unicodeWords(rule.pattern);
    compiled = TABLES;
  }
  return compiled;
}

export interface RuleVerdict {
  verdict: "stay" | "search" | "ambiguous";
  /** `<language>:<rule>`, e.g. "de:weather". */
  rule?: string;
  timely: boolean;
}

/**
 * Every table is consulted, whatever the language: a message rarely says which one it is in, and the
 * patterns of one language seldom fire on another. All stay rules go before all search rules.
 */
export function classifyMessage(message: string): RuleVerdict {
  const text = normalise(message);
  if (!text) return { verdict: "stay", rule: "empty", timely: false };
  if (/\d/.test(text) && BARE_ARITHMETIC.test(text))
    return { verdict: "stay", rule: "arithmetic", timely: false };
  for (const kind of ["stay", "search"] as const) {
    for (const [lang, rules] of Object.entries(tables())) {
      for (const rule of rules) {
        if (rule.kind === kind && rule.pattern.test(text)) {
          return { verdict: kind, rule: `${lang}:${rule.name}`, timely: !!rule.timely };
        }
      }
    }
  }
  return { verdict: "ambiguous", timely: false };
}

/** True when some search rule marks the text as changing over time (used by the planner for the year). */
export function isTimely(text: string): boolean {
  const t = normalise(text);
  return Object.values(tables()).some((rules) =>
    rules.some((r) => r.kind === "search" && r.timely && r.pattern.test(t)),
  );
}

function normalise(message: string): string {
  return message
    .normalize("NFKC")
    .replace(/[’‘`´]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

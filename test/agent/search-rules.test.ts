import { describe, expect, it } from "vitest";
import { classifyMessage } from "../../src/agent/search-rules.js";

type Case = [message: string, verdict: "stay" | "search" | "ambiguous"];

const TABLES: Record<string, Case[]> = {
  en: [
    ["What's 17 times 23?", "stay"],
    ["12 * (3 + 4)", "stay"],
    ["Set an alarm for 7am", "stay"],
    ["Start a timer for ten minutes", "stay"],
    ["Turn off the kitchen lights", "stay"],
    ["Play some jazz", "stay"],
    ["What's my battery level?", "stay"],
    ["What time is it?", "stay"],
    ["Rewrite this email so it sounds friendlier", "stay"],
    ["Translate 'good luck' into Japanese", "stay"],
    ["Write a poem about today", "stay"],
    ["Hello, how are you?", "stay"],
    ["Tell me a joke", "stay"],
    ["What's the weather in Lisbon?", "search"],
    ["Bitcoin price", "search"],
    ["Any news about the election?", "search"],
    ["Who won the match last night?", "search"],
    ["Pharmacies near me", "search"],
    ["What is the latest version of Node.js?", "search"],
    ["Who wrote Faust?", "ambiguous"],
    ["Explain how vaccines work", "ambiguous"],
  ],
  de: [
    ["Was ist 12 mal 8?", "stay"],
    ["Wie viel ist 3 plus 4?", "stay"],
    ["Stell einen Wecker auf 6 Uhr", "stay"],
    ["Erinnere mich morgen an den Arzttermin", "stay"],
    ["Mach das Licht im Wohnzimmer aus", "stay"],
    ["Dreh die Musik lauter", "stay"],
    ["Wie spät ist es?", "stay"],
    ["Wie ist mein Akkustand?", "stay"],
    ["Schreib eine Geburtstagskarte für Oma", "stay"],
    ["Kannst du diesen Absatz übersetzen?", "stay"],
    ["Hallo, wie geht's?", "stay"],
    ["Erzähl mir einen Witz", "stay"],
    ["Wie wird das Wetter in Berlin?", "search"],
    ["Was kostet ein Liter Diesel?", "search"],
    ["Aktuelle Nachrichten aus Wien", "search"],
    ["Wer hat gewonnen, Bayern oder Dortmund?", "search"],
    ["Apotheke in meiner Nähe", "search"],
    ["Was läuft heute im Kino?", "search"],
    ["Wer hat den Faust geschrieben?", "ambiguous"],
    ["Erkläre mir die Photosynthese", "ambiguous"],
  ],
  it: [
    ["Quanto fa 7 per 8?", "stay"],
    ["Calcola 15 diviso 3", "stay"],
    ["Imposta una sveglia alle 7", "stay"],
    ["Ricordami di chiamare Luca", "stay"],
    ["Accendi la luce in cucina", "stay"],
    ["Alza il volume", "stay"],
    ["Che ore sono?", "stay"],
    ["Quanta batteria mi resta?", "stay"],
    ["Scrivi una poesia sul mare", "stay"],
    ["Traduci questa frase in inglese", "stay"],
    ["Ciao, come stai?", "stay"],
    ["Raccontami una barzelletta", "stay"],
    ["Che tempo fa a Milano?", "search"],
    ["Meteo Napoli domani", "search"],
    ["Prezzo della benzina", "search"],
    ["Ultime notizie sul governo", "search"],
    ["Chi ha vinto la partita dell'Inter?", "search"],
    ["Farmacia vicino a me", "search"],
    ["Cosa danno oggi al cinema?", "search"],
    ["Chi ha scritto la Divina Commedia?", "ambiguous"],
  ],
  es: [
    ["¿Cuánto es 6 por 7?", "stay"],
    ["Pon una alarma a las 8", "stay"],
    ["Recuérdame comprar leche", "stay"],
    ["Enciende la luz del salón", "stay"],
    ["¿Qué hora es?", "stay"],
    ["Escribe un poema sobre el mar", "stay"],
    ["Traduce esto al inglés", "stay"],
    ["Hola, ¿cómo estás?", "stay"],
    ["Cuéntame un chiste", "stay"],
    ["¿Qué tiempo hace en Madrid?", "search"],
    ["Precio del oro", "search"],
    ["Noticias de Argentina", "search"],
    ["¿Quién ganó el partido del Real Madrid?", "search"],
    ["Restaurantes cerca de mí", "search"],
    ["¿Quién escribió Don Quijote?", "ambiguous"],
  ],
  fr: [
    ["Combien font 9 fois 6 ?", "stay"],
    ["Mets un réveil à 7 heures", "stay"],
    ["Rappelle-moi d'appeler Marie", "stay"],
    ["Allume la lumière du salon", "stay"],
    ["Quelle heure est-il ?", "stay"],
    ["Écris un poème sur Paris", "stay"],
    ["Traduis cette phrase en allemand", "stay"],
    ["Bonjour, comment ça va ?", "stay"],
    ["Raconte-moi une blague", "stay"],
    ["Quel temps fait-il à Lyon ?", "search"],
    ["Prix de l'essence", "search"],
    ["Les actualités en France", "search"],
    ["Qui a gagné le match du PSG ?", "search"],
    ["Boulangerie près de moi", "search"],
    ["Qui a écrit Les Misérables ?", "ambiguous"],
  ],
};

describe.each(Object.entries(TABLES))("search rules (%s)", (_lang, cases) => {
  it("has at least 15 cases", () => expect(cases.length).toBeGreaterThanOrEqual(15));
  it.each(cases)("%s ⇒ %s", (message, verdict) => {
    expect(classifyMessage(message).verdict).toBe(verdict);
  });
});

describe("search rules: details", () => {
  it("names the rule and its language", () => {
    expect(classifyMessage("Wie wird das Wetter morgen?")).toMatchObject({
      verdict: "search",
      rule: "de:weather",
    });
  });
  it("marks prices, news, sports and recency as timely, weather and places not", () => {
    expect(classifyMessage("latest iPhone price").timely).toBe(true);
    expect(classifyMessage("weather in Oslo").timely).toBe(false);
    expect(classifyMessage("bakery near me").timely).toBe(false);
  });
});

/** Multilingual test pages: a start that says what the page is, filler sections, one matching section. */
function filler(topic: string, n: number, sentence: (i: number) => string): string[] {
  return Array.from(
    { length: n },
    (_, i) => `## ${topic} ${i + 1}\n\n${Array.from({ length: 4 }, (_, k) => sentence(i * 4 + k)).join(" ")}`,
  );
}

export const ENGLISH = [
  "# Lithium-ion batteries",
  "This page explains how lithium-ion batteries work, how they age and how to store them safely.",
  ...filler("History", 6, (i) => `In year ${1970 + i} researchers improved the cathode chemistry once more.`),
  "## Safety\n\nThermal runaway happens when a damaged cell heats up faster than it can shed heat; the runaway spreads from cell to cell.",
  ...filler(
    "Manufacturing",
    6,
    (i) => `Factory line ${i} coats electrode foil with slurry and dries it in long ovens.`,
  ),
].join("\n\n");

export const GERMAN = [
  "# Akkus im Smartphone",
  "Diese Seite beschreibt, wie Smartphone-Akkus altern und was man dagegen tun kann.",
  ...filler(
    "Geschichte",
    5,
    (i) => `Im Jahr ${1990 + i} kamen neue Gehäuse mit besseren Antennen auf den Markt.`,
  ),
  "## Laufzeit\n\nDie Akkulaufzeit sinkt nach etwa fünfhundert Ladezyklen deutlich; Hitze beschleunigt die Alterung der Akkulaufzeit.",
  ...filler("Design", 5, (i) => `Modell ${i} hatte ein Gehäuse aus Aluminium und Glas.`),
  "## Zusammenfassung\n\nZusammenfassung: eine Zusammenfassung aller Abschnitte dieser Seite, kurz zusammengefasst.",
].join("\n\n");

export const ITALIAN = [
  "# La batteria dello smartphone",
  "Questa pagina spiega come si consuma la batteria e come farla durare di più.",
  ...filler("Storia", 5, (i) => `Nel ${1995 + i} i telefoni avevano schermi piccoli e tastiere fisiche.`),
  "## Durata\n\nLa batteria perde capacità con il calore: tenere la batteria sotto i trenta gradi ne allunga la vita.",
  ...filler("Schermi", 5, (i) => `Il modello ${i} aveva uno schermo più luminoso del precedente.`),
  "## Riassunto\n\nRiassunto scritto: questo riassunto è scritto per chi ha fretta, ed è scritto in breve.",
].join("\n\n");

export const JAPANESE = [
  "# スマートフォンの電池",
  "このページでは、スマートフォンの電池がどのように劣化するかを説明します。",
  ...filler("歴史", 6, (i) => `${1990 + i}年には新しい画面の技術が登場しました。`),
  "## 寿命\n\n電池の寿命は充電回数と温度で決まります。高温は電池の寿命を縮めます。",
  ...filler("デザイン", 6, (i) => `モデル${i}はアルミニウムの筐体を採用しました。`),
].join("\n\n");

export const ARABIC = [
  "# بطاريات الهواتف",
  "تشرح هذه الصفحة كيف تتقادم بطاريات الهواتف الذكية وكيف نحافظ عليها.",
  ...filler("تاريخ", 6, (i) => `في عام ${1990 + i} ظهرت شاشات جديدة وأجهزة أخف وزنا.`),
  "## العمر\n\nتفقد البطارية سعتها مع الحرارة، لذلك احفظ البطارية في مكان بارد.",
  ...filler("تصميم", 6, (i) => `الطراز ${i} جاء بهيكل من الألمنيوم والزجاج.`),
].join("\n\n");

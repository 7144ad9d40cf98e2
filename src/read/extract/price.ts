// A price ("£64.00", "24,00 €", "$24.00 USD", "ab 19,99 €"): short and unlike a sentence, yet on a product page it
// is what the reader came for.
const PRICE =
  /^(?:(?:[Ff]rom|[Aa]b|[Dd]ès|[Dd]esde|[Oo]d)\s+)?(?:[$€£¥₹]\s?\d[\d.,\s]*(?:\s?[A-Z]{3})?|\d[\d.,\s]*\s?(?:[$€£¥₹]|[A-Z]{3}))$/u;

export function isPrice(text: string): boolean {
  return text.length <= 40 && PRICE.test(text.trim());
}

// A price ("£64.00", "24,00 €", "$24.00 USD", "ab 19,99 €"): short and unlike a sentence, yet on a product page it
// is what the reader came for. Shops write it with its currency's code first ("EUR 163.12", "US $394.99"), a
// label ("Sale price $799") or the tax it includes ("€49.99 VAT included", "19,99 € inkl. MwSt.") in the same
// short line, which is the price all the same.
const LABEL = String.raw`(?:(?:[Ff]rom|[Aa]b|[Dd]ès|[Dd]esde|[Oo]d|(?:(?:[Ss]ale|[Rr]egular|[Ll]ist|[Oo]ur)\s+)?[Pp]rice:?|[Nn]ow|[Ww]as)\s+)?`;
// A code before the amount is read only for the common currencies: "USB 3.0" is no price.
const CODES = "(?:EUR|USD|GBP|CAD|AUD|NZD|CHF|JPY|CNY|HKD|SGD|INR|SEK|NOK|DKK|PLN|CZK|HUF|MXN|BRL|ZAR|TRY)";
const AMOUNT = String.raw`(?:(?:[A-Z]{1,3}\s?)?[$€£¥₹]\s?\d[\d.,\s]*(?:\s?[A-Z]{3})?|${CODES}\s?\d[\d.,\s]*|\d[\d.,\s]*\s?(?:[$€£¥₹]|[A-Z]{3}))`;
const TAX = String.raw`(?:\s*(?:(?:incl\.?|inkl\.?|including|excl\.?|excluding|plus|\+)\s*)?(?:VAT|[Tt]ax(?:es)?|MwSt\.?|TTC|HT|IVA|TVA|GST)(?:\s+(?:included|incl\.?|inkl\.?))?)?`;
const PRICE = new RegExp(`^${LABEL}${AMOUNT}${TAX}$`, "u");

export function isPrice(text: string): boolean {
  return text.length <= 40 && PRICE.test(text.trim());
}

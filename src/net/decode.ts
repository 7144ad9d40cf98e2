import sniffHtmlEncoding from "html-encoding-sniffer";

/** `text/html; charset=Shift_JIS` → `{ type: "text/html", charset: "Shift_JIS" }`. */
export function parseContentType(header: string | undefined): { type: string; charset?: string } {
  if (!header) return { type: "" };
  const [type, ...params] = header.split(";");
  let charset: string | undefined;
  for (const param of params) {
    const [k, v] = param.split("=");
    if (k?.trim().toLowerCase() === "charset" && v) charset = v.trim().replace(/^["']|["']$/g, "");
  }
  return { type: type.trim().toLowerCase(), charset };
}

/** Whether a charset label names an encoding (WHATWG labels, as TextDecoder knows them). */
export function knownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/**
 * Bytes to text the way a browser would: BOM, then the header's charset, then `<meta charset>` (for HTML).
 * Node's TextDecoder implements the WHATWG Encoding Standard (windows-1252, Shift_JIS, GBK, EUC-KR, KOI8-R …);
 * html-encoding-sniffer maps labels and prescans the meta tag. An unknown label falls back to sniffing.
 */
export function decodeText(
  bytes: Uint8Array,
  contentType: string | undefined,
): { text: string; charset: string } {
  const { type, charset: declared } = parseContentType(contentType);
  const isHtml = type === "" || type.includes("html") || type.includes("xml");
  let encoding: string | undefined;
  try {
    encoding = sniffHtmlEncoding(isHtml ? bytes : bytes.subarray(0, 4), {
      transportLayerEncodingLabel: declared,
      defaultEncoding: "",
    });
  } catch {
    encoding = undefined;
  }
  if (!encoding || encoding === "replacement") encoding = guessUndeclared(bytes);
  try {
    if (encoding === "windows-1252") return { text: decodeWindows1252(bytes), charset: encoding };
    return { text: new TextDecoder(encoding).decode(bytes), charset: encoding };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), charset: "UTF-8" };
  }
}

/** Nothing declared: valid UTF-8 is by far the likeliest today; otherwise the web's legacy default. */
function guessUndeclared(bytes: Uint8Array): string {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return "UTF-8";
  } catch {
    return "windows-1252";
  }
}

// WHATWG windows-1252 for 0x80–0x9F. Node 20's TextDecoder decodes "windows-1252" (and every label that maps to
// it: latin1, iso-8859-1, ascii) as ISO-8859-1, so curly quotes, dashes and € came out as C1 control characters.
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  return latin1.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80]));
}

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

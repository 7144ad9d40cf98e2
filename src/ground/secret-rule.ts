/** One pattern of the redactor's table (see secret-rules.ts for how the table is ordered and why). */
export interface SecretRule {
  kind: string;
  /** Global, with the `d` flag when `group` is set, so the secret's own span is known. */
  pattern: RegExp;
  /** Capture group(s) holding the secret when the match also carries context that should stay readable. */
  group?: number | number[];
  /** Last check on the secret itself (and where it stands), for shapes a regex cannot tell from prose. */
  accept?: (secret: string, text: string, start: number) => boolean;
}

// The end of a token: gitleaks' `(?:[\x60'"\s;]|\\[nr]|$)`, as a lookahead so the delimiter stays put.
export const END = String.raw`(?=[\x60'"\s;,.)\]}>&|]|\\[nr]|$)`;

export function rule(
  kind: string,
  source: string,
  extra: Partial<SecretRule> & { flags?: string } = {},
): SecretRule {
  const { flags = "g", ...rest } = extra;
  const needsIndices = rest.group !== undefined && !flags.includes("d");
  return { kind, pattern: new RegExp(source, needsIndices ? `${flags}d` : flags), ...rest };
}

/** Shannon entropy in bits per character: random base62 runs near 5, English words and hex digests lower. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Letters and digits both, the mark of a generated token rather than a word or a number. */
export function mixesLettersAndDigits(value: string): boolean {
  return /\d/.test(value) && /[A-Za-z]/.test(value);
}

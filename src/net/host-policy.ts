/**
 * Names that mean something only inside a network. Resolving them would point the agent at the operator's
 * own machines, whatever a public resolver says, so they are refused before any lookup.
 */
const INTERNAL_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "home.arpa",
  "localdomain",
  "lan",
  "intranet",
  "corp",
  "home",
];

const DOTTED_SUFFIXES = INTERNAL_SUFFIXES.map((s) => `.${s}`);
const OK = { ok: true } as const;

export function vetHostname(hostname: string): { ok: true } | { ok: false; reason: string } {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (!name) return { ok: false, reason: "the URL has no host" };
  for (let i = 0; i < INTERNAL_SUFFIXES.length; i++) {
    const suffix = INTERNAL_SUFFIXES[i];
    if (name === suffix || name.endsWith(DOTTED_SUFFIXES[i])) {
      return { ok: false, reason: `${name} is a name that only means something inside a private network` };
    }
  }
  // A dotless name is completed by the local resolver's search domains: an intranet host, never the web.
  if (!name.includes(".")) return { ok: false, reason: `${name} is a single-label (intranet) name` };
  return OK;
}

/** The Fetch standard's bad ports: browsers refuse them so a page cannot speak SMTP, SSH or IRC through us. */
export const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

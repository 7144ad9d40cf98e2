import { classifyError } from "./failure.js";
import { systemResolve } from "./resolver.js";
import { checkUrl, type Resolve, vetAddresses } from "./url-policy.js";

export type VetResult = { ok: true; addresses: string[] } | { ok: false; code: string; reason: string };

/** The whole address policy (rules 1 and 2) as one call, with an injectable resolver. */
export async function vetUrl(url: string, options: { resolve?: Resolve } = {}): Promise<VetResult> {
  const checked = checkUrl(url);
  if (!checked.ok) return { ok: false, code: checked.code, reason: checked.reason };
  if (checked.literal) return { ok: true, addresses: [checked.literal] };
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(checked.hostname);
  } catch (err) {
    const failure = classifyError(err, checked.url.href, "dns");
    return { ok: false, code: failure.code, reason: failure.message };
  }
  const verdict = vetAddresses(checked.hostname, addresses);
  if (!verdict.ok) return { ok: false, code: "blocked_url", reason: verdict.reason };
  return { ok: true, addresses };
}

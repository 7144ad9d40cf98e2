import { readFileSync } from "node:fs";
import tls from "node:tls";

/**
 * The CA list for TLS. With no extra CA, Node's default store is used as is (it already holds
 * NODE_EXTRA_CA_CERTS). A `ca` option replaces that whole store in Node, so extra certificates are added to
 * the public roots and to NODE_EXTRA_CA_CERTS rather than standing in for them: trusting a corporate proxy's CA
 * must not stop public sites from verifying.
 */
export function trustedCAs(
  extra: string | string[] | undefined,
  extraCaCertsFile: string | undefined,
): string[] | undefined {
  const list = extra === undefined ? [] : Array.isArray(extra) ? extra : [extra];
  if (list.length === 0) return undefined;
  const fromEnv: string[] = [];
  if (extraCaCertsFile) {
    try {
      fromEnv.push(readFileSync(extraCaCertsFile, "utf8"));
    } catch {
      // Node itself only warns about an unreadable file; so do we, by ignoring it.
    }
  }
  return [...tls.rootCertificates, ...fromEnv, ...list];
}

/** One SecureContext for the extra CAs, built once: a `ca` list would be parsed again on every connection. */
export function trustContext(
  extra: string | string[] | undefined,
  extraCaCertsFile: string | undefined,
): { secureContext?: tls.SecureContext } {
  const ca = trustedCAs(extra, extraCaCertsFile);
  return ca ? { secureContext: tls.createSecureContext({ ca }) } : {};
}

import { ASSIGNMENT_RULE } from "./secret-assignment.js";
import { PREFIXED_RULES } from "./secret-prefixed.js";
import { mixesLettersAndDigits, rule, type SecretRule, shannonEntropy } from "./secret-rule.js";

export type { SecretRule } from "./secret-rule.js";

/**
 * The secret patterns the redactor knows, checked against the families of gitleaks' published rules
 * (config/gitleaks.toml) and trufflehog's detectors (URIs, connection strings, cloud key files). secretlint's
 * presets would have been the maintained alternative, but they need Node 22 and lint asynchronously, while the
 * redactor runs synchronously on every title, snippet, page and error.
 *
 * Ordered from specific to generic: where two rules claim the same span, the earlier names it. Every rule needs a
 * vendor prefix or an explicit context (a header, a key name, a label), so hex digests, UUIDs, git SHAs and prose
 * never match; the generic assignment rule adds an entropy test on top of the name.
 */

/** A bearer value is a token, not the next word of a sentence ("Bearer authentication", "Bearer Tokens"). */
function looksLikeToken(value: string): boolean {
  return /\d/.test(value) || /[-._~+/]/.test(value) || /[a-z][A-Z]/.test(value);
}

/** Basic credentials are base64 of "user:password"; an English word after "Basic" never decodes so. */
function isBasicCredential(value: string): boolean {
  const decoded = Buffer.from(value, "base64").toString("latin1");
  return /^[\x20-\x7e]+$/.test(decoded) && /^[^:]+:./.test(decoded);
}

/** `$TOKEN`, `${PASSWORD}`, `%PASS%`, `<password>`, `{{ secret }}`: a reference to a secret, not one. */
const notReference = (value: string) => !/[$%<>{}]/.test(value) && !/^(?:\*+|x+|\.+)$/i.test(value);

export const SECRET_RULES: SecretRule[] = [
  // private-key: PEM blocks, whole, with or without their END line (a cut page may have lost it). The body is
  // what a PEM body can hold, not anything up to an END: a page of BEGIN lines would otherwise rescan to its end
  // from each of them.
  rule(
    "private-key",
    String.raw`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:(?:[A-Za-z0-9+/=\s]|\\n|(?:Proc-Type|DEK-Info|Comment):[^\n]*)*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:(?:\s|\\n)*[A-Za-z0-9+/=]{16,})*)`,
    {},
  ),
  // PuTTY key files carry their private half after a line count (trufflehog's privatekey detector)
  rule("private-key", String.raw`Private-Lines:[ \t]*\d+(?:\r?\n[A-Za-z0-9+/=]{4,}(?=\r?\n|$))+`, {}),
  // gcp-service-account (gitleaks matches the key file by path; here the JSON field itself is the context)
  rule("gcp-service-account-key", String.raw`"private_key"\s*:\s*"([^"]{32,})"`, {
    group: 1,
  }),
  // private keys written in hex where the text says they are keys (a bare 64-hex run is usually a hash). This
  // rule and the next few start at a rare literal and look behind for their context: V8 tries a pattern that
  // opens with an alternation of common letters at nearly every position of a page.
  rule(
    "hex-private-key",
    String.raw`key(?<=\b(?:priv(?:ate)?|secret|signing|wallet|account|ed25519|secp256k1)[ _-]?key)\b[^\n]{0,24}?\b((?:0x)?[0-9a-fA-F]{64})(?![0-9a-fA-F])`,
    { flags: "gi", group: 1 },
  ),
  ...PREFIXED_RULES,
  // aws secret: 40 base64 characters are everywhere, so only a named key counts
  rule(
    "aws-secret-access-key",
    String.raw`\b(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|aws_?secret)["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    { flags: "gi", group: 1 },
  ),
  // Azure storage and Service Bus connection strings, and shared access signatures in URLs (trufflehog's
  // azure_storage, azuresastoken); S3 and GCS presigned URLs carry their signature the same way
  rule("azure-key", String.raw`(?<![\w])(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{20,}={0,2})`, {
    group: 1,
  }),
  rule(
    "url-signature",
    "[?&](?:sig|X-Amz-Signature|X-Goog-Signature|Signature)=((?:[A-Za-z0-9+/_-]|%[0-9A-Fa-f]{2}){20,}=*)",
    { group: 1 },
  ),
  // Password=…; in ADO.NET, ODBC and JDBC connection strings: the `;` is the context, so any value counts
  rule(
    "connection-string-password",
    String.raw`=(?<=(?<![\w])(?:Password|Pwd)[ \t]*=)[ \t]*([^;"'\s]{3,200})(?=;)`,
    {
      flags: "gi",
      group: 1,
      accept: notReference,
    },
  ),
  // nuget-config-password
  rule("nuget-password", String.raw`<add\s+key="(?:ClearText)?Password"\s+value="([^"]{1,200})"`, {
    flags: "gi",
    group: 1,
    accept: notReference,
  }),
  // curl-auth-user
  rule(
    "curl-credentials",
    String.raw`\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:[ \t]+|=)["']?([^\s"':]{1,64}:[^\s"']{3,200})`,
    { group: 1, accept: notReference },
  ),
  // curl-auth-header, generalised to any Authorization value wherever it appears
  rule("authorization", String.raw`\bBearer\s+([A-Za-z0-9._~+/-]{5,}[A-Za-z0-9_~+/]=*)`, {
    flags: "gi",
    group: 1,
    accept: looksLikeToken,
  }),
  rule("authorization", String.raw`\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])`, {
    flags: "gi",
    group: 1,
    accept: isBasicCredential,
  }),
  rule("authorization", String.raw`\bAuthorization\s*[:=]\s*["']?token\s+([A-Za-z0-9._~+/-]{8,}=*)`, {
    flags: "gi",
    group: 1,
  }),
  // Credentials in the userinfo of a URL of any scheme, with or without a user name (`redis://:pw@host`,
  // `mongodb+srv://u:pw@…`, `amqp://…`); gitleaks has this only per vendor (sidekiq-sensitive-url). The match
  // starts at the literal "://", so the scheme is never rescanned.
  rule("url-password", String.raw`://[^\s/?#@:"'<>]*:([^\s/?#@"'<>]+)@`, { group: 1 }),
  // A token standing alone as the user name (`https://<token>@host/…`): only a generated-looking one
  rule("url-credential", "://([A-Za-z0-9_-]{20,200})@", {
    group: 1,
    accept: (user) => mixesLettersAndDigits(user) && shannonEntropy(user) >= 3.5,
  }),
  ASSIGNMENT_RULE,
];

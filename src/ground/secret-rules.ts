/**
 * The secret patterns the redactor knows, written from gitleaks' published rules (config/gitleaks.toml,
 * rule ids cited per entry). secretlint's presets would have been the maintained alternative, but they
 * need Node 22 and lint asynchronously, while the redactor runs synchronously on every title, snippet,
 * page and error.
 *
 * Where gitleaks is strict about length we are a little looser (`{36,}` where it says `{36}`): a
 * redactor that misses a slightly longer real token leaks it, one that hides a slightly longer fake
 * costs nothing. Every rule still needs a vendor prefix or an explicit context (a header, a key name), so
 * hex digests, UUIDs, git SHAs and prose never match.
 */
export interface SecretRule {
  kind: string;
  /** Global, with the `d` flag when `group` is set, so the secret's own span is known. */
  pattern: RegExp;
  /** Capture group holding the secret when the match also carries context that should stay readable. */
  group?: number;
  /** Last check on the secret itself, for shapes a regex cannot tell from prose. */
  accept?: (secret: string) => boolean;
}

// The end of a token: gitleaks' `(?:[\x60'"\s;]|\\[nr]|$)`, as a lookahead so the delimiter stays put.
const END = String.raw`(?=[\x60'"\s;,.)\]}>]|\\[nr]|$)`;

function rule(kind: string, source: string, flags = "g", extra: Partial<SecretRule> = {}): SecretRule {
  const needsIndices = extra.group !== undefined && !flags.includes("d");
  return { kind, pattern: new RegExp(source, needsIndices ? `${flags}d` : flags), ...extra };
}

/** A bearer value is a token, not the next word of a sentence ("Bearer authentication"). */
function looksLikeToken(value: string): boolean {
  return /\d/.test(value) || /[-._~+/]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** Basic credentials are base64 of "user:password"; an English word after "Basic" never decodes so. */
function isBasicCredential(value: string): boolean {
  const decoded = Buffer.from(value, "base64").toString("latin1");
  return /^[\x20-\x7e]+$/.test(decoded) && /^[^:]+:./.test(decoded);
}

/** Ordered from specific to generic: where two rules claim the same span, the earlier names it. */
export const SECRET_RULES: SecretRule[] = [
  // private-key
  rule(
    "private-key",
    String.raw`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:(?:\s|\\n)*[A-Za-z0-9+/=]{16,})*)`,
  ),
  // gcp-service-account (gitleaks matches the key file by path; here the JSON field itself is the context)
  rule("gcp-service-account-key", String.raw`"private_key"\s*:\s*"([^"]{32,})"`, "g", { group: 1 }),
  // anthropic-api-key, anthropic-admin-api-key
  rule("anthropic-api-key", String.raw`\bsk-ant-[a-z]+\d*-[A-Za-z0-9_-]{20,}${END}`),
  // openai-api-key: project, service-account and admin keys, then the legacy shape
  rule("openai-api-key", String.raw`\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}${END}`),
  rule("openai-api-key", String.raw`\bsk-[A-Za-z0-9]{32,}${END}`),
  // github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat
  rule("github-token", String.raw`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`),
  rule("github-token", String.raw`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`),
  // gitlab-pat, gitlab-pat-routable, gitlab-deploy-token, gitlab-runner-authentication-token, gitlab-ptt, …
  rule(
    "gitlab-token",
    String.raw`\bgl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct)-[A-Za-z0-9_.-]{20,300}${END}`,
  ),
  rule("gitlab-token", String.raw`\bGR1348941[A-Za-z0-9_-]{20,}\b`),
  // aws-access-token (gitleaks allowlists the docs' …EXAMPLE id; we redact it like any other)
  rule("aws-access-key-id", String.raw`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`),
  // aws secret: 40 base64 characters are everywhere, so only a named key counts
  rule(
    "aws-secret-access-key",
    String.raw`\b(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|aws_?secret)["']?\s*(?:=|:|=>)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    "gi",
    { group: 1 },
  ),
  // stripe-access-token
  rule("stripe-key", String.raw`\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,247}\b`),
  // slack-webhook-url
  rule(
    "slack-webhook",
    String.raw`(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}`,
  ),
  // slack-bot-token, slack-user-token, slack-legacy-*, slack-config-*
  rule("slack-token", String.raw`\bxox[abposer]-[A-Za-z0-9-]{10,}`),
  // slack-app-token
  rule("slack-token", String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`, "gi"),
  // npm-access-token
  rule("npm-token", String.raw`\bnpm_[A-Za-z0-9]{36,}\b`),
  // pypi-upload-token
  rule("pypi-token", String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`),
  // huggingface-access-token, huggingface-organization-api-token
  rule("huggingface-token", String.raw`\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`),
  // gcp-api-key
  rule("google-api-key", String.raw`\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`),
  // jwt
  rule("jwt", String.raw`\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
  // curl-auth-header, generalised to any Authorization value wherever it appears
  rule("authorization", String.raw`\bBearer\s+([A-Za-z0-9._~+/-]{6,}=*)`, "gi", {
    group: 1,
    accept: looksLikeToken,
  }),
  rule("authorization", String.raw`\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])`, "gi", {
    group: 1,
    accept: isBasicCredential,
  }),
  rule("authorization", String.raw`\bAuthorization\s*[:=]\s*["']?token\s+([A-Za-z0-9._~+/-]{8,}=*)`, "gi", {
    group: 1,
  }),
  // URLs with a password in their userinfo (gitleaks has this only per vendor, e.g. sidekiq-sensitive-url)
  rule("url-password", String.raw`\b[a-z][a-z0-9+.-]*://[^\s/?#@:]+:([^\s/?#@]+)@`, "gi", { group: 1 }),
];

import { FAKE, fakeChars } from "./fake-secrets.js";

/**
 * The redactor's measuring corpus: one fake per family (built at run time, so no string in the repository looks
 * like a leaked key), keyed by the gitleaks rule ids it stands for, and negatives that must come back untouched.
 * test/ground/safety/secret-families.test.ts asserts both; bench/redaction.bench.mjs reports the same figures.
 */
const HEX = "0123456789abcdef";
const LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789";
const UPPER36 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// Past fakeChars' TESTSECRET marker, for shapes whose alphabet has no room for it.
const only = (alphabet: string) => (n: number) => fakeChars(n + 10, alphabet).slice(10);
const hex = only(HEX);
const digits = only("0123456789");
const lower = only(LOWER36);
const b64 = (n: number) => fakeChars(n, B64);
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
const pem = (label: string) =>
  [`-----BEGIN ${label}-----`, FAKE.pemBody(), `-----END ${label}-----`].join("\n");

export interface Positive {
  /** gitleaks rule ids (or a trufflehog detector, marked so) this sample stands for. */
  covers: string[];
  /** The text a page or query would carry. */
  text: string;
  /** The secret itself: it must be gone from the output. */
  secret: string;
  kind: string;
}

const p = (covers: string[], kind: string, secret: string, text = `value ${secret} end`): Positive => ({
  covers,
  kind,
  secret,
  text,
});

export function positives(): Positive[] {
  const awsSecret = FAKE.awsSecret();
  const gcpKey = pem(["PRIVATE", "KEY"].join(" "));
  const storageKey = b64(86) + "==";
  const dbPass = `p4${fakeChars(14)}`;
  return [
    p(
      ["1password-secret-key"],
      "1password-secret",
      `A3-${fakeChars(6, UPPER36)}-${fakeChars(11, UPPER36)}-${fakeChars(5, UPPER36)}-${fakeChars(5, UPPER36)}-${fakeChars(5, UPPER36)}`,
    ),
    p(["1password-service-account-token"], "1password-secret", `ops_eyJ${fakeChars(120)}`),
    p(
      ["age-secret-key"],
      "age-secret-key",
      `AGE-SECRET-KEY-1${fakeChars(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")}`,
    ),
    p(["alibaba-access-key-id"], "alibaba-access-key-id", `LTAI${fakeChars(20)}`),
    p(["anthropic-api-key"], "anthropic-api-key", FAKE.anthropic()),
    p(["anthropic-admin-api-key"], "anthropic-api-key", FAKE.anthropicAdmin()),
    p(["artifactory-api-key"], "artifactory-token", `AKCp${fakeChars(69)}`),
    p(["artifactory-reference-token"], "artifactory-token", `cmVmd${fakeChars(59)}`),
    p(["atlassian-api-token"], "atlassian-token", `ATATT3${fakeChars(186)}`),
    p(
      ["authress-service-client-access-key"],
      "authress-key",
      `sc_${fakeChars(10)}.${fakeChars(5)}.acc_${lower(20)}.${fakeChars(40)}`,
    ),
    p(["aws-access-token"], "aws-access-key-id", FAKE.awsKeyId()),
    p(["aws secret (context)"], "aws-secret-access-key", awsSecret, `aws_secret_access_key = ${awsSecret}`),
    p(["azure-ad-client-secret"], "azure-client-secret", `${fakeChars(3)}8Q~${fakeChars(34)}`),
    p(
      ["trufflehog:azure_storage"],
      "azure-key",
      storageKey,
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${storageKey};EndpointSuffix=core.windows.net`,
    ),
    p(
      ["trufflehog:azuresastoken"],
      "url-signature",
      `${b64(43)}%3D`,
      `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sp=r&sig=${b64(43)}%3D`,
    ),
    p(["clickhouse-cloud-api-secret-key"], "clickhouse-key", `4b1d${fakeChars(38)}`),
    p(["clojars-api-token"], "clojars-token", `CLOJARS_${lower(60)}`),
    p(["cloudflare-origin-ca-key"], "cloudflare-key", `v1.0-${hex(24)}-${hex(146)}`),
    p(
      ["curl-auth-header"],
      "authorization",
      "test-SECRET-0123456789abcdef",
      `curl -H "Authorization: Bearer test-SECRET-0123456789abcdef" https://api.example.com`,
    ),
    p(
      ["curl-auth-user"],
      "curl-credentials",
      `alice:${dbPass}`,
      `curl -u alice:${dbPass} https://api.example.com`,
    ),
    p(["database-password"], "assigned-secret", dbPass, `DB_PASSWORD=${dbPass}`),
    p(["databricks-api-token"], "databricks-token", `dapi${hex(32)}`),
    p(
      ["digitalocean-pat", "digitalocean-access-token", "digitalocean-refresh-token"],
      "digitalocean-token",
      `dop_v1_${hex(64)}`,
    ),
    p(["doppler-api-token"], "doppler-token", `dp.pt.${fakeChars(43)}`),
    p(["duffel-api-token"], "duffel-token", `duffel_test_${fakeChars(43)}`),
    p(
      ["dynatrace-api-token"],
      "dynatrace-token",
      `dt0c01.${fakeChars(24, UPPER36)}.${fakeChars(64, UPPER36)}`,
    ),
    p(["easypost-api-token", "easypost-test-api-token"], "easypost-key", `EZAK${fakeChars(54)}`),
    p(["facebook-page-access-token"], "facebook-token", `EAAC${fakeChars(120)}`),
    p(["facebook-access-token"], "facebook-token", `${lower(32)}`, `token=${digits(15)}|${lower(32)} end`),
    p(
      ["flutterwave-secret-key", "flutterwave-public-key", "flutterwave-encryption-key"],
      "flutterwave-key",
      `FLWSECK_TEST-${hex(32)}-X`,
    ),
    p(["flyio-access-token"], "flyio-token", `fo1_${fakeChars(43)}`),
    p(["frameio-api-token"], "frameio-token", `fio-u-${fakeChars(64)}`),
    p(["gcp-api-key"], "google-api-key", FAKE.googleApiKey()),
    p(
      ["gcp-service-account (key file)"],
      "gcp-service-account-key",
      gcpKey,
      JSON.stringify({ type: "service_account", private_key: `${gcpKey}\n` }),
    ),
    p(["trufflehog:gcpoauth"], "google-oauth", `GOCSPX-${fakeChars(28)}`),
    p(["generic-api-key"], "assigned-secret", fakeChars(32), `"api_key": "${fakeChars(32)}"`),
    p(["github-pat"], "github-token", FAKE.githubClassic()),
    p(["github-fine-grained-pat"], "github-token", FAKE.githubFineGrained()),
    p(["github-oauth"], "github-token", FAKE.githubOauth()),
    p(["github-app-token"], "github-token", FAKE.githubApp()),
    p(["github-refresh-token"], "github-token", FAKE.githubRefresh()),
    p(["github webhook secret (named)"], "assigned-secret", hex(40), `GITHUB_WEBHOOK_SECRET=${hex(40)}`),
    p(["gitlab-pat", "gitlab-pat-routable"], "gitlab-token", FAKE.gitlab()),
    p(
      [
        "gitlab-deploy-token",
        "gitlab-cicd-job-token",
        "gitlab-feed-token",
        "gitlab-incoming-mail-token",
        "gitlab-kubernetes-agent-token",
        "gitlab-oauth-app-secret",
        "gitlab-runner-authentication-token",
        "gitlab-runner-authentication-token-routable",
        "gitlab-scim-token",
        "gitlab-feature-flag-client-token",
        "gitlab-ptt",
      ],
      "gitlab-token",
      FAKE.gitlabDeploy(),
    ),
    p(["gitlab-rrt"], "gitlab-token", `GR1348941${fakeChars(20)}`),
    p(["gitlab-session-cookie"], "gitlab-token", lower(32), `Cookie: _gitlab_session=${lower(32)}`),
    p(
      ["grafana-api-key", "grafana-cloud-api-token", "grafana-service-account-token"],
      "grafana-token",
      `glsa_${fakeChars(32)}_${hex(8)}`,
    ),
    p(["harness-api-key"], "harness-token", `pat.${fakeChars(22)}.${fakeChars(24)}.${fakeChars(20)}`),
    p(
      ["hashicorp-tf-api-token"],
      "terraform-token",
      fakeChars(65),
      `${fakeChars(14)}.atlasv1.${fakeChars(65)}`,
    ),
    p(["hashicorp-tf-password"], "assigned-secret", dbPass, `administrator_login_password = "${dbPass}"`),
    p(["heroku-api-key-v2"], "heroku-key", `HRKU-AA${fakeChars(58)}`),
    p(["heroku-api-key"], "assigned-secret", uuid(), `HEROKU_API_KEY=${uuid()}`),
    p(
      ["huggingface-access-token", "huggingface-organization-api-token"],
      "huggingface-token",
      FAKE.huggingface(),
    ),
    p(["infracost-api-token"], "infracost-token", `ico-${fakeChars(32)}`),
    p(["intra42-client-secret"], "intra42-secret", `s-s4t2ud-${hex(64)}`),
    p(["jwt"], "jwt", FAKE.jwt()),
    p(["jwt-base64"], "jwt", Buffer.from(FAKE.jwt()).toString("base64").replace(/=+$/, "")),
    p(["linear-api-key"], "linear-key", `lin_api_${fakeChars(40)}`),
    p(["mailchimp-api-key"], "mailchimp-key", hex(32), `MC ${hex(32)}-us12 end`),
    p(["mailgun-private-api-token"], "mailgun-key", `key-${hex(32)}`),
    p(["mapbox-api-token"], "mapbox-token", `sk.eyJ${fakeChars(60)}.${fakeChars(22)}`),
    p(["maxmind-license-key"], "maxmind-key", fakeChars(29), `${fakeChars(6)}_${fakeChars(29)}_mmk`),
    p(
      ["microsoft-teams-webhook"],
      "teams-webhook",
      `https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${hex(32)}/${uuid()}`,
    ),
    p(
      ["new-relic-user-api-key", "new-relic-insert-key", "new-relic-browser-api-token"],
      "newrelic-key",
      `NRAK-${fakeChars(27, UPPER36)}`,
    ),
    p(["notion-api-token"], "notion-token", `ntn_${digits(11)}${fakeChars(35)}`),
    p(["npm-access-token"], "npm-token", FAKE.npm()),
    p(
      ["nuget-config-password"],
      "nuget-password",
      dbPass,
      `<add key="ClearTextPassword" value="${dbPass}" />`,
    ),
    p(["octopus-deploy-api-key"], "octopus-key", `API-${fakeChars(26, UPPER36)}`),
    p(["openai-api-key"], "openai-api-key", FAKE.openaiProject()),
    p(["openshift-user-token"], "openshift-token", `sha256~${fakeChars(43)}`),
    p(["perplexity-api-key"], "ai-provider-key", `pplx-${fakeChars(48)}`),
    p(["trufflehog:groq"], "ai-provider-key", `gsk_${fakeChars(52)}`),
    p(["trufflehog:tavily"], "ai-provider-key", `tvly-dev-${fakeChars(32)}`),
    p(
      ["planetscale-api-token", "planetscale-oauth-token", "planetscale-password"],
      "planetscale-token",
      `pscale_tkn_${fakeChars(43)}`,
    ),
    p(["postman-api-token"], "postman-token", `PMAK-${hex(24)}-${hex(34)}`),
    p(["prefect-api-token"], "prefect-token", `pnu_${fakeChars(36)}`),
    p(["private-key"], "private-key", FAKE.pemBody(), `key:\n${pem(["RSA", "PRIVATE KEY"].join(" "))}\n`),
    p(
      ["trufflehog:privatekey (PuTTY)"],
      "private-key",
      FAKE.pemBody().split("\n")[0] as string,
      `PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n${FAKE.pemBody().split("\n")[0]}\nPrivate-MAC: ${hex(64)}`,
    ),
    p(
      ["private key in hex (labelled)"],
      "hex-private-key",
      `0x${hex(64)}`,
      `wallet private key: 0x${hex(64)}`,
    ),
    p(["pulumi-api-token"], "pulumi-token", `pul-${hex(40)}`),
    p(["pypi-upload-token"], "pypi-token", FAKE.pypi()),
    p(["readme-api-token"], "readme-token", `rdme_${lower(70)}`),
    p(["rubygems-api-token"], "rubygems-token", `rubygems_${hex(48)}`),
    p(["scalingo-api-token"], "scalingo-token", `tk-us-${fakeChars(48)}`),
    p(["sendgrid-api-token"], "sendgrid-token", `SG.${fakeChars(22)}.${fakeChars(43)}`),
    p(["sendinblue-api-token"], "sendinblue-token", `xkeysib-${hex(64)}-${fakeChars(16)}`),
    p(["sentry-user-token", "sentry-org-token"], "sentry-token", `sntryu_${hex(64)}`),
    p(
      [
        "settlemint-personal-access-token",
        "settlemint-application-access-token",
        "settlemint-service-access-token",
      ],
      "settlemint-token",
      `sm_pat_${fakeChars(16)}`,
    ),
    p(["shippo-api-token"], "shippo-token", `shippo_live_${hex(40)}`),
    p(
      [
        "shopify-access-token",
        "shopify-custom-access-token",
        "shopify-private-app-access-token",
        "shopify-shared-secret",
      ],
      "shopify-token",
      `shpat_${hex(32)}`,
    ),
    p(
      ["sidekiq-secret"],
      "sidekiq-secret",
      `${hex(8)}:${hex(8)}`,
      `BUNDLE_GEMS__CONTRIBSYS__COM=${hex(8)}:${hex(8)}`,
    ),
    p(
      ["sidekiq-sensitive-url"],
      "url-password",
      hex(9).slice(1),
      `https://${hex(8)}:${hex(9).slice(1)}@gems.contribsys.com/`,
    ),
    p(["slack-bot-token", "slack-legacy-bot-token"], "slack-token", FAKE.slackBot()),
    p(
      [
        "slack-user-token",
        "slack-legacy-token",
        "slack-legacy-workspace-token",
        "slack-config-refresh-token",
        "slack-config-access-token",
      ],
      "slack-token",
      FAKE.slackUser(),
    ),
    p(["slack-app-token"], "slack-token", FAKE.slackApp()),
    p(["slack-webhook-url"], "slack-webhook", FAKE.slackWebhook()),
    p(["slack signing secret (named)"], "assigned-secret", hex(32), `SLACK_SIGNING_SECRET=${hex(32)}`),
    p(["square-access-token"], "square-token", `sq0atp-${fakeChars(22)}`),
    p(["stripe-access-token"], "stripe-key", FAKE.stripeLive()),
    p(["stripe webhook secret (whsec_)"], "webhook-secret", `whsec_${fakeChars(32)}`),
    p(
      ["telegram-bot-api-token"],
      "telegram-bot-token",
      `AA${fakeChars(33)}`,
      `bot ${digits(10)}:AA${fakeChars(33)} end`,
    ),
    p(
      ["trufflehog:discordwebhook"],
      "discord-webhook",
      `https://discord.com/api/webhooks/${digits(18)}/${fakeChars(68)}`,
    ),
    p(["twilio-api-key"], "twilio-key", `SK${hex(32)}`),
    p(["typeform-api-token"], "typeform-token", `tfp_${fakeChars(59)}`),
    p(["vault-service-token", "vault-batch-token"], "vault-token", `hvs.${fakeChars(100)}`),
    p(
      ["yandex-api-key", "yandex-access-token", "yandex-aws-access-token"],
      "yandex-token",
      `AQVN${fakeChars(36)}`,
    ),
    p(
      ["trufflehog:uri (password)"],
      "url-password",
      dbPass,
      `postgres://app:${dbPass}@db.example.com:5432/prod`,
    ),
    p(
      ["trufflehog:redis (no user)"],
      "url-password",
      dbPass,
      `REDIS_URL is redis://:${dbPass}@cache.example.com:6379/0`,
    ),
    p(
      ["trufflehog:mongodb"],
      "url-password",
      dbPass,
      `mongodb+srv://svc:${dbPass}@cluster0.example.mongodb.net/app`,
    ),
    p(
      ["trufflehog:uri (token as user)"],
      "url-credential",
      fakeChars(40),
      `git clone https://${fakeChars(40)}@git.example.com/org/repo.git`,
    ),
    p(
      ["trufflehog:sqlserver"],
      "connection-string-password",
      dbPass,
      `Server=db;Database=app;User Id=sa;Password=${dbPass};`,
    ),
    p(["generic .env assignment"], "assigned-secret", fakeChars(40), `export CLIENT_SECRET=${fakeChars(40)}`),
    p(["generic YAML assignment"], "assigned-secret", fakeChars(24), `auth:\n  token: ${fakeChars(24)}\n`),
    p(
      ["docker config auth"],
      "assigned-secret",
      b64(40),
      `{"auths":{"registry.example.com":{"auth":"${b64(40)}"}}}`,
    ),
  ];
}

/** Families of gitleaks' list no rule here covers, with the reason. */
export const NOT_COVERED: Record<string, string> = {
  "kubernetes-secret-yaml":
    "the values under `data:` are plain base64 with ordinary names; only a name that says secret is caught",
  "pkcs12-file": "a file-path rule: websift reads text, not files",
  "vault-service-token (legacy s. shape)":
    "the bare `s.` + 24 characters is caught only under a name such as VAULT_TOKEN",
};

/** Text that must come back exactly as it went in. */
export function negatives(): string[] {
  const png = `data:image/png;base64,iVBORw0KGgo${fakeChars(10)}+AKIA${"A".repeat(16)}+AIza${"b".repeat(35)}/sk_live_${"c".repeat(20)}==`;
  return [
    // prose
    "The committee met on Tuesday to discuss the budget. Members agreed that the key issue was the lack of a clear secret ballot, and the password policy for the new intranet was postponed until spring.",
    "Key: the results show a clear trend. Token economies reward behaviour; the secret of good bread is time. Password: required for all accounts, see the handbook.",
    "Authentication uses tokens that expire after an hour; rotate your API keys every 90 days and never commit credentials to source control.",
    "He handed over the key to the city, a token of gratitude, and kept the secret for twenty years.",
    "In 2024 the token price rose 12% while the access key count fell; see https://example.com/report?year=2024&page=3.",
    "The private key is kept in a hardware module; the public key is published at https://example.org/.well-known/keys.",
    "We support Bearer authentication and Basic authentication over TLS. Bearer Tokens, explained: Bearer Bearer.",
    "Ratio 16:9, time 10:45:30, score 3:1, https://example.com:8443/path and git@github.com:org/repo.git.",
    // code
    'const token = await getToken(user.id);\nconst apiKey: string = process.env.API_KEY ?? "";\nif (!password) throw new Error("password: required");',
    "SECRET_KEY = os.environ.get('SECRET_KEY')\nDATABASE_PASSWORD = settings.DATABASE_PASSWORD\npassword = request.form['password']",
    "password: z.string().min(8),\ntoken: z.string().uuid(),\nsecret: process.env.SESSION_SECRET,\napiKey: config.apiKey,",
    `api_key = $${""}{API_KEY}\nDB_PASSWORD=$DB_PASSWORD\nTOKEN={{ secrets.TOKEN }}\nsecret: <your-secret-here>\npassword: changeme\nAPI_KEY=your-api-key-here`,
    '<input type="password" name="password" autocomplete="current-password">\n<meta name="csrf-token" content="' +
      fakeChars(40) +
      '">',
    'items.map((item) => <Row key={item.id} />);\nconst cache = { key: "user-profile-settings" };\nkeyboard: "qwertyuiopasdfgh"',
    '"publicKey": "' + b64(44) + '",\n"next_page_token": "' + fakeChars(40) + '",\n"primary_key": "order_id"',
    "token_url: https://oauth2.example.com/token\nauth_uri: https://accounts.example.com/o/oauth2/auth\nsecret_name: prod/db/password",
    "monkey = 'chimpanzee-bonobo'\nturkey: roasted-with-herbs\npassKey = keyPass + 1",
    // lockfiles, hashes, ids
    '"integrity": "sha512-' +
      b64(86) +
      '==",\n"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"',
    'left-pad@^1.3.0:\n  version "1.3.0"\n  integrity sha512-' + b64(86) + "==",
    "commit 4f7ba1134c2d9a0e8b1f6c5d7e3a2b9c8d0e1f2a\nMerge: 1a2b3c4 5d6e7f8\nsha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "md5 d41d8cd98f00b204e9800998ecf8427e, sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "request id 123e4567-e89b-12d3-a456-426614174000, trace 4bf92f3577b34da6a3ce929d0e0e4736",
    '"id": "123e4567-e89b-12d3-a456-426614174000",\n"key": "123e4567-e89b-12d3-a456-426614174000"',
    "checksum: " + hex(64) + "\nhash = " + hex(40),
    // images, styles
    `<img src="${png}" alt="chart">`,
    `![chart](${png})`,
    ":root { --token-color: #1e90ff; --key-accent: #ff00aa; color: #333; background: rgba(0,0,0,.5); }",
    ".btn-primary { background-color: #0d6efd; border-color: #0a58ca; } #fff #FFFFFF #a1b2c3",
    // URLs without credentials
    "https://user@example.com/path and ftp://anonymous@ftp.example.org/pub",
    "https://example.com/search?q=api+key+rotation&lang=en and mailto:someone@example.com",
    "The ghp_ prefix marks classic tokens; AKIA prefixes mark AWS keys; whsec_ marks webhook secrets.",
  ];
}

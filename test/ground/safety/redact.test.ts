import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../../src/ground/redact.js";
import { FAKE, fakeChars } from "./fake-secrets.js";

const BEGIN = (label: string) => `-----BEGIN ${label}-----`;
const END = (label: string) => `-----END ${label}-----`;

describe("redactSecrets: vendor tokens", () => {
  const cases: [string, string, string][] = [
    ["Anthropic API key", FAKE.anthropic(), "anthropic-api-key"],
    ["Anthropic admin key", FAKE.anthropicAdmin(), "anthropic-api-key"],
    ["OpenAI project key", FAKE.openaiProject(), "openai-api-key"],
    ["OpenAI legacy key", FAKE.openaiLegacy(), "openai-api-key"],
    ["OpenAI legacy key without marker", `sk-${fakeChars(48)}`, "openai-api-key"],
    ["GitHub classic PAT", FAKE.githubClassic(), "github-token"],
    ["GitHub fine-grained PAT", FAKE.githubFineGrained(), "github-token"],
    ["GitHub app installation token", FAKE.githubApp(), "github-token"],
    ["GitHub app user token", FAKE.githubUser(), "github-token"],
    ["GitHub OAuth token", FAKE.githubOauth(), "github-token"],
    ["GitHub refresh token", FAKE.githubRefresh(), "github-token"],
    ["GitLab PAT", FAKE.gitlab(), "gitlab-token"],
    ["GitLab deploy token", FAKE.gitlabDeploy(), "gitlab-token"],
    ["AWS access key id", FAKE.awsKeyId(), "aws-access-key-id"],
    ["AWS docs example id", "AKIAIOSFODNN7EXAMPLE", "aws-access-key-id"],
    ["Stripe live secret", FAKE.stripeLive(), "stripe-key"],
    ["Stripe test secret", FAKE.stripeTest(), "stripe-key"],
    ["Stripe live restricted", FAKE.stripeRestrictedLive(), "stripe-key"],
    ["Stripe test restricted", FAKE.stripeRestrictedTest(), "stripe-key"],
    ["Slack bot token", FAKE.slackBot(), "slack-token"],
    ["Slack user token", FAKE.slackUser(), "slack-token"],
    ["Slack app token", FAKE.slackApp(), "slack-token"],
    ["Slack webhook URL", FAKE.slackWebhook(), "slack-webhook"],
    ["npm token", FAKE.npm(), "npm-token"],
    ["PyPI token", FAKE.pypi(), "pypi-token"],
    ["HuggingFace token", FAKE.huggingface(), "huggingface-token"],
    ["Google API key", FAKE.googleApiKey(), "google-api-key"],
    ["JWT", FAKE.jwt(), "jwt"],
  ];

  it.each(cases)("%s", (_name, secret, kind) => {
    const { text, found } = redactSecrets(`before ${secret} after`);
    expect(text).toBe(`before [REDACTED:${kind}] after`);
    expect(found).toEqual([{ kind }]);
  });

  it.each(cases)("%s inside quotes, JSON and env lines", (_name, secret, kind) => {
    for (const wrapped of [`"${secret}"`, `KEY=${secret}`, `{"token":"${secret}"}`, `\`${secret}\`.`]) {
      const { text } = redactSecrets(wrapped);
      expect(text).not.toContain(secret);
      expect(text).toContain(`[REDACTED:${kind}]`);
    }
  });
});

describe("redactSecrets: secrets known by their context", () => {
  it("keeps the AWS secret's key name and hides the value", () => {
    const secret = FAKE.awsSecret();
    for (const line of [
      `aws_secret_access_key = ${secret}`,
      `AWS_SECRET_ACCESS_KEY="${secret}"`,
      `"SecretAccessKey": "${secret}"`,
      `secretAccessKey: '${secret}'`,
    ]) {
      const { text, found } = redactSecrets(line);
      expect(text).not.toContain(secret);
      expect(text).toContain("[REDACTED:aws-secret-access-key]");
      expect(found).toEqual([{ kind: "aws-secret-access-key" }]);
    }
  });

  it("hides Bearer and Basic authorization values", () => {
    const bearer = redactSecrets("Authorization: Bearer test-SECRET-0123456789abcdef");
    expect(bearer.text).toBe("Authorization: Bearer [REDACTED:authorization]");
    expect(redactSecrets("Bearer a1b2c3").text).toBe("Bearer [REDACTED:authorization]");
    const basic = Buffer.from("alice:test-SECRET-pw").toString("base64");
    expect(redactSecrets(`curl -H "Authorization: Basic ${basic}"`).text).toBe(
      'curl -H "Authorization: Basic [REDACTED:authorization]"',
    );
    expect(redactSecrets("authorization: token test-SECRET-abcdef12").text).toBe(
      "authorization: token [REDACTED:authorization]",
    );
  });

  it("names a JWT in a Bearer header as a JWT", () => {
    const jwt = FAKE.jwt();
    expect(redactSecrets(`Bearer ${jwt}`)).toEqual({
      text: "Bearer [REDACTED:jwt]",
      found: [{ kind: "jwt" }],
    });
  });

  it("hides the password of a URL and keeps the rest readable", () => {
    const { text } = redactSecrets("connect to postgres://app:test-SECRET-pw1@db.example.com:5432/prod now");
    expect(text).toBe("connect to postgres://app:[REDACTED:url-password]@db.example.com:5432/prod now");
    expect(redactSecrets("https://bob:hunter2@example.com/x").text).toBe(
      "https://bob:[REDACTED:url-password]@example.com/x",
    );
  });

  it("removes PEM private key blocks whole, with or without their END line", () => {
    const label = ["RSA", "PRIVATE KEY"].join(" ");
    const body = FAKE.pemBody();
    const block = `${BEGIN(label)}\n${body}\n${END(label)}`;
    const { text, found } = redactSecrets(`key:\n${block}\nthat was it`);
    expect(text).toBe("key:\n[REDACTED:private-key]\nthat was it");
    expect(found).toEqual([{ kind: "private-key" }]);

    const cut = redactSecrets(`${BEGIN(["OPENSSH", "PRIVATE KEY"].join(" "))}\n${body}\n\nThe page goes on.`);
    expect(cut.text).toBe("[REDACTED:private-key]\n\nThe page goes on.");
  });

  it("hides a service-account private key in its JSON file", () => {
    const label = ["PRIVATE", "KEY"].join(" ");
    const json = JSON.stringify({
      type: "service_account",
      private_key: `${BEGIN(label)}\n${FAKE.pemBody()}\n${END(label)}\n`,
      client_email: "fake@test-project.iam.gserviceaccount.com",
    });
    const { text, found } = redactSecrets(json);
    expect(text).toContain('"private_key":"[REDACTED:');
    expect(text).not.toContain(fakeChars(64));
    expect(text).toContain("fake@test-project.iam.gserviceaccount.com");
    expect(found).toHaveLength(1);
  });

  it("reports every hit in text order", () => {
    const { text, found } = redactSecrets(`${FAKE.npm()} then ${FAKE.githubClassic()} and ${FAKE.npm()}`);
    expect(text).toBe("[REDACTED:npm-token] then [REDACTED:github-token] and [REDACTED:npm-token]");
    expect(found.map((f) => f.kind)).toEqual(["npm-token", "github-token", "npm-token"]);
  });
});

describe("redactSecrets: leaves ordinary text alone", () => {
  const png = `data:image/png;base64,iVBORw0KGgo${fakeChars(10)}+AKIA${"A".repeat(16)}+AIza${"b".repeat(35)}/sk_live_${"c".repeat(20)}==`;
  const innocent = [
    "md5 d41d8cd98f00b204e9800998ecf8427e",
    "sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "commit 4f7ba1134c2d9a0e8b1f6c5d7e3a2b9c8d0e1f2a fixed it",
    `<img src="${png}" alt="chart">`,
    `![chart](${png})`,
    "pip install scikit-learn; import sklearn; the sk-learn docs",
    "We support Bearer authentication and Basic authentication over TLS.",
    "The bearer of this letter is a friend.",
    "https://example.com:8080/path?q=1 and git@github.com:org/repo.git",
    "mail me at user@example.com",
    "The ghp_ prefix marks classic tokens; AKIA prefixes mark AWS keys.",
    "xoxo, see you soon",
    "base64 of a long word: aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Q=",
    "eyes.eyebrows.eyelids",
    "The private key must never be shared: keep -----BEGIN lines out of git.",
  ];

  it.each(innocent)("%s", (line) => {
    expect(redactSecrets(line)).toEqual({ text: line, found: [] });
  });

  it("still finds a secret right after a data URI", () => {
    const key = FAKE.githubClassic();
    expect(redactSecrets(`![x](${png}) token ${key}`).text).toBe(
      `![x](${png}) token [REDACTED:github-token]`,
    );
  });
});

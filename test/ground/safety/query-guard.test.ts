import { describe, expect, it } from "vitest";
import { guardQuery } from "../../../src/ground/query-guard.js";
import { FAKE } from "./fake-secrets.js";

const refused: [string, RegExp][] = [
  ["/Users/alice/Documents/taxes-2024.pdf", /home-directory/],
  ["summarise /home/bob/projects/acme/notes.md", /home-directory/],
  ["what is in /home/bob/.ssh/id_rsa", /home-directory/],
  ["why does /Users/alice/Library/Caches grow", /home-directory/],
  ["ls /root/.aws/credentials", /home-directory/],
  ["cat /etc/passwd", /absolute filesystem path/],
  ["/etc/shadow contents", /absolute filesystem path/],
  ["tail -f /var/log/nginx/error.log", /absolute filesystem path/],
  ["ls /root", /absolute filesystem path/],
  ["install into /opt", /absolute filesystem path/],
  ["read /tmp/session-8f3a2c91d4/secret.txt", /absolute filesystem path/],
  ["/private/etc/hosts override", /absolute filesystem path/],
  ["/private/var/folders/xy/abc/T/tmp.txt", /home-directory/],
  ["grep token /proc/self/environ", /absolute filesystem path/],
  ["what is /var/lib/docker/overlay2/3f9a1c2e7b4d5a6f", /absolute filesystem path/],
  ["config at path=/srv/app/config.yaml", /absolute filesystem path/],
  ["open ~/Downloads/contract.docx", /home-directory/],
  ["~alice/.bashrc settings", /home-directory/],
  ["what is ~/.zshrc", /home-directory/],
  ["C:\\Users\\Bob\\AppData\\Roaming\\app.ini", /Windows/],
  ["open C:/Users/bob/Desktop/report.xlsx", /Windows/],
  ["D:\\backups\\db.sqlite", /Windows/],
  ["C://Users//bob//notes.txt", /Windows/],
  ["\\\\fileserver\\share\\payroll.xlsx", /Windows/],
  ["file:///etc/hosts", /file: URL/],
  // rooted in an environment variable, in every shell's spelling
  ["cat $HOME/.ssh/id_rsa", /environment variable \(\$HOME\/…\)/],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling is the input under test
  ["${HOME}/notes/plan.txt contents", /environment variable/],
  ['ls "$HOME"/Downloads', /environment variable/],
  ["open %USERPROFILE%\\Documents\\taxes.pdf", /environment variable \(%USERPROFILE%\/…\)/],
  ["%APPDATA%\\Code\\User\\settings.json", /environment variable/],
  ["%LocalAppData%/Temp/dump.txt", /environment variable/],
  ["Get-Content $env:USERPROFILE\\Desktop\\notes.txt", /environment variable/],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: PowerShell's spelling is the input under test
  ["${env:APPDATA}\\npm\\etc", /environment variable/],
  ["$XDG_CONFIG_HOME/app/config.toml settings", /environment variable/],
  ["$PROJECT_ROOT\\secrets.json", /environment variable/],
  ["$HOME/Documents", /environment variable/],
  ["/foo/*", /glob/],
  ["**/*.ts", /glob/],
  ["find src/**/*.test.ts", /glob/],
  ["src/*.js exports", /glob/],
  ["/etc/*.conf", /glob/],
  [`how to use ${FAKE.githubClassic()} in actions`, /secret \(github-token\)/],
  [`openai key ${FAKE.openaiProject()} not working`, /secret \(openai-api-key\)/],
  [`AKIAIOSFODNN7EXAMPLE permissions`, /secret \(aws-access-key-id\)/],
  [`curl -H "Authorization: Bearer test-SECRET-0123456789"`, /secret \(authorization\)/],
  ["connect postgres://app:test-SECRET-pw@db.example.com/prod", /secret \(url-password\)/],
  // dressed up: zero-width characters, fullwidth slashes
  ["/Us\u200Bers/alice/notes.txt", /home-directory/],
  ["／home／bob／notes.txt", /home-directory/],
  [`token ${FAKE.githubClassic().replace("_", "_\u200B")}`, /secret/],
];

const allowed = [
  "site:github.com websift issues",
  'site:docs.python.org "asyncio.gather" -site:stackoverflow.com',
  "intitle:vector inurl:cpp std::vector<int> push_back",
  "std::vector<int> reserve vs resize",
  "what is 3/4 as a percentage",
  "2**10 in python",
  "3*4/2 order of operations",
  "https://example.com/path?q=1 redirect loop",
  "example.org/etc/passwd exposure report",
  "what is /etc/passwd used for",
  "why does /var/log fill up",
  "what is /etc/fstab used for?",
  "is /tmp cleared on reboot",
  "how to configure /etc/nginx/nginx.conf",
  "warum ist /var/log so groß",
  "perché /tmp è pieno",
  "why is /home a separate partition",
  "redirect stderr to /dev/null in bash",
  "#!/usr/bin/env node shebang",
  "C comments /* like this */ in JavaScript",
  "r/programming best posts",
  "react router /users/:id route params",
  "GET /api/v1/users returns 404",
  "glob pattern syntax explained",
  "site:*.example.com login",
  "sk-learn vs scikit-learn tutorial",
  "relative path ../config/settings.json",
  "ratio 16:9 vs 4:3",
  "~3/4 cup of sugar in grams",
  "Bearer authentication vs Basic authentication",
  "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "東京 天気 明日",
  "what does $HOME mean in bash",
  "echo $PATH shows nothing",
  "$BTC/USD price today",
  "$5/month hosting plans",
  "price in $/kg for copper",
  "100%/year growth rate",
  "50% off/discount codes",
];

describe("guardQuery", () => {
  it.each(refused)("refuses %j", (query, reason) => {
    const verdict = guardQuery(query);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it.each(allowed)("allows %j", (query) => {
    expect(guardQuery(query)).toEqual({ ok: true });
  });

  it("never repeats the secret in its reason", () => {
    const key = FAKE.stripeLive();
    const verdict = guardQuery(`stripe ${key} balance`);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).not.toContain(key);
  });
});

import { describe, expect, it } from "vitest";
import { detectJsShell, proseLength } from "../../../src/read/shell.js";

const bundle = `<script>${"var a=1;".repeat(4000)}</script>`;

describe("detectJsShell", () => {
  it("flags empty framework mount points when the text is tiny", () => {
    expect(detectJsShell('<body><div id="root"></div><script src="/a.js"></script></body>', "")).toEqual({
      shell: true,
      reason: "empty mount point",
    });
    expect(detectJsShell('<body><div id="__next"><!-- --></div></body>', "").shell).toBe(true);
    expect(detectJsShell("<body><app-root></app-root></body>", "Loading").shell).toBe(true);
  });

  it("flags pages that ask for JavaScript", () => {
    const html =
      "<body><noscript>You need to enable JavaScript to run this app.</noscript><div id=x>…</div></body>";
    expect(detectJsShell(html, "You need to enable JavaScript to run this app.")).toEqual({
      shell: true,
      reason: "asks for JavaScript",
    });
  });

  it("flags tiny text in a large script-heavy document", () => {
    expect(detectJsShell(`<body><div class="app">Loading…</div>${bundle}</body>`, "Loading…")).toMatchObject({
      shell: true,
    });
  });

  it("leaves short honest pages and long pages alone", () => {
    expect(
      detectJsShell("<body><h1>Example</h1><p>An ordinary page.</p></body>", "# Example\n\nAn ordinary page.")
        .shell,
    ).toBe(false);
    const prose = "Real words about a real subject. ".repeat(20);
    expect(
      detectJsShell(
        `<body><div id="root"></div><p>${prose}</p><noscript>enable JavaScript</noscript></body>`,
        prose,
      ).shell,
    ).toBe(false);
  });

  it("measures prose without markdown syntax", () => {
    expect(proseLength("## Title\n\n- a *b*\n\n| x | y |")).toBe("Title a b x y".length);
  });

  it("counts prose as the text with syntax and whitespace runs made one space, for every kind of space", () => {
    const byReplacing = (md: string) =>
      md
        .replace(/[#>*_`|\-[\]()!]+/g, " ")
        .replace(/\s+/g, " ")
        .trim().length;
    // Every code unit \s matches, the syntax characters, and look-alikes that are not spaces.
    const spaces = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c)).filter((c) =>
      /\s/.test(c),
    );
    const alphabet = [
      ...spaces,
      ..."#>*_`|-[]()!",
      "a",
      "é",
      "字",
      "\u200b",
      "\u180e",
      "\ud83d\ude00",
      "1",
      ".",
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 2000; round++) {
      const md = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join("");
      expect(proseLength(md), JSON.stringify(md)).toBe(byReplacing(md));
    }
    expect(spaces.length).toBeGreaterThan(20);
  });
});

import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerResearch } from "../../src/cli/commands/research.js";

// The command wired end to end with web search switched off, so no request can leave: the hop progress goes to
// stderr, the envelope alone to stdout, and the exit code tells failure from bad input.
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

async function run(args: string[]) {
  process.env.WEBSIFT_ENABLED = "0";
  delete process.env.WEBSIFT_LLM_BASE_URL;
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => err.push(String(chunk)) > 0);
  const program = new Command().exitOverride();
  registerResearch(program);
  await program.parseAsync(["node", "websift", "research", ...args]);
  vi.restoreAllMocks();
  return { out: out.join(""), err: err.join(""), code: process.exitCode };
}

describe("websift research", () => {
  it("reports each hop on stderr and the envelope on stdout; says it runs without a model", async () => {
    const { out, err, code } = await run(["zugspitze", "height"]);
    expect(err).toContain("No language model configured");
    expect(err).toContain("🔎 Hop 1/4: searching 'zugspitze height'");
    expect(out).toContain("Web search is turned off");
    expect(out).not.toContain("🔎");
    expect(code).toBe(1);
  });

  it("--json prints the model view, --json --raw the result shape", async () => {
    const view = JSON.parse((await run(["--json", "--max-hops", "2", "zugspitze"])).out);
    expect(view).toEqual({ status: "disabled", text: expect.stringContaining("Web search is turned off") });
    const { out } = await run(["--json", "--raw", "--max-hops", "2", "zugspitze"]);
    const parsed = JSON.parse(out);
    expect(parsed).toMatchObject({
      status: "disabled",
      degraded: true,
      hops: [{ query: "zugspitze" }],
      sources: [],
    });
  });

  it("a question with a secret path is bad input and searches nothing", async () => {
    const { err, code } = await run(["what is in ~/.aws/credentials"]);
    expect(err).not.toContain("🔎");
    expect(code).toBe(2);
  });
});

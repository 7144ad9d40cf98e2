import type { Deadline } from "../../core/deadline.js";
import { type ContentKind, classifyContent } from "../content-kind.js";
import { FORMAT_READERS } from "../formats/registry.js";
import { fetchSite } from "./site-json.js";
import type { SiteContext, SiteOutcome } from "./site-reader.js";
import { codeBlock } from "./site-text.js";

/**
 * A file of a repository as it is stored (a blob page's file, or a raw.githubusercontent.com URL): its text in a
 * fenced block with the language of its extension, markdown as the markdown it is, and a file that has a format
 * reader (a PDF in a repository) read by it. Text is asked for with a Range of `RAW_BYTES`, so a huge log or
 * data file costs its first part only, cut at a line with a note of its real size.
 */
export const RAW_BYTES = 512 * 1024;
/** A file with a format reader may be larger than the text window: it is fetched whole, up to this. */
const FORMAT_BYTES = 3 * 1024 * 1024;

export interface RepoFile {
  owner: string;
  repo: string;
  /** `ref/path/to/file`, as in the URL (a ref may itself hold slashes: raw.githubusercontent.com resolves it). */
  refAndPath: string;
  /** The lines a link pointed at (`#L10-L20`), shown before the whole file. */
  lines?: [number, number];
}

export async function readRepoFile(
  file: RepoFile,
  ctx: SiteContext,
  deadline: Deadline,
): Promise<SiteOutcome> {
  const raw = `https://raw.githubusercontent.com/${file.owner}/${file.repo}/${file.refAndPath}`;
  const got = await fetchSite(raw, ctx, deadline, {
    headers: { range: `bytes=0-${RAW_BYTES - 1}` },
    accept: [416],
  });
  if (!got.ok) return got;
  let res = got.res;
  // 416: the Range asked for more than an empty file holds.
  const total = res.status === 416 ? 0 : (totalBytes(res.headers["content-range"]) ?? res.bytes.length);
  const name = decodeURIComponent(file.refAndPath.split("/").pop() ?? file.refAndPath);
  const repo = `${file.owner}/${file.repo}`;
  const title = `${name} · ${repo}`;
  const content: ContentKind =
    res.status === 416 ? { kind: "text" } : classifyContent(res.contentType, res.bytes);

  if (content.kind === "format") {
    if (res.bytes.length < total) {
      const whole = await fetchSite(raw, ctx, deadline, { maxBytes: FORMAT_BYTES });
      if (!whole.ok) return whole;
      res = whole.res;
    }
    const reader = FORMAT_READERS[content.format];
    const read = await reader.read(
      res.bytes,
      { url: raw, contentType: res.contentType, format: content.format },
      deadline,
    );
    if (!read.ok) return read;
    return {
      ok: true,
      title: read.title ?? title,
      markdown: read.markdown,
      via: `raw (${reader.name})`,
      links: read.links ?? [],
    };
  }
  if (content.kind === "binary") {
    const markdown = `# ${name}\n\n${repo}: a binary file (${content.type}, ${sizeOf(total)}), not shown as text.\n\nRaw: ${raw}`;
    return { ok: true, title, markdown, via: "raw" };
  }

  // A server that ignored the Range sent the whole file (within net's cap): the window is kept all the same.
  const shown = res.status === 416 ? res.bytes.subarray(0, 0) : res.bytes.subarray(0, RAW_BYTES);
  let text = new TextDecoder("utf-8").decode(shown);
  let note = "";
  if (shown.length < total) {
    const lastLine = text.lastIndexOf("\n");
    if (lastLine > 0) text = text.slice(0, lastLine);
    note = `\n\n[cut: the first ${sizeOf(shown.length)} of ${sizeOf(total)} are shown; the whole file: ${raw}]`;
  }
  const lines = text ? text.split("\n").length : 0;
  const facts = `${repo} · \`${decodeURIComponent(file.refAndPath)}\` · ${lines.toLocaleString("en-US")} lines · ${sizeOf(total)}`;
  const lang = languageOf(name);
  const body =
    lang === "markdown"
      ? absoluteLinks(text, `https://github.com/${repo}/blob/${dirOf(file.refAndPath)}`)
      : codeBlock(text, lang ?? "");
  const linked = file.lines ? linkedLines(text, file.lines, lang) : "";
  return { ok: true, title, markdown: `# ${name}\n\n${facts}\n\n${linked}${body}${note}`, via: "raw" };
}

/** The lines a link points at, fenced, before the whole file: what the link's author wanted seen. */
function linkedLines(text: string, [from, to]: [number, number], lang: string | undefined): string {
  const lines = text.split("\n");
  if (from > lines.length) return "";
  const last = Math.min(to, lines.length);
  const range = from === last ? `Line ${from}` : `Lines ${from}–${last}`;
  const excerpt = lines.slice(from - 1, last).join("\n");
  return `${range} (linked):\n\n${codeBlock(excerpt, lang === "markdown" ? "markdown" : (lang ?? ""))}\n\nThe whole file:\n\n`;
}

/** The whole size from `Content-Range: bytes 0-524287/1048576`; undefined when unknown ("*") or absent. */
function totalBytes(header: string | undefined): number | undefined {
  const total = /\/(\d+)\s*$/.exec(header ?? "")?.[1];
  return total ? Number(total) : undefined;
}

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function dirOf(refAndPath: string): string {
  const slash = refAndPath.lastIndexOf("/");
  return slash === -1 ? `${refAndPath}/` : refAndPath.slice(0, slash + 1);
}

/**
 * Relative links and images of a repository's markdown (`docs/guide.md`, `./logo.png`) made absolute against the
 * file's own directory on github.com, as GitHub renders them, so a model can follow them.
 */
export function absoluteLinks(markdown: string, baseDir: string): string {
  const base = baseDir.endsWith("/") ? baseDir : `${baseDir}/`;
  return markdown.replace(/(!?\[[^\]\n]*\]\()([^)\s]+)/g, (whole, open: string, target: string) => {
    if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target)) return whole;
    try {
      return `${open}${new URL(target, base).href}`;
    } catch {
      return whole;
    }
  });
}

/** The fence language of a file, from its name or extension; "markdown" means: show it as markdown. */
export function languageOf(name: string): string | undefined {
  const lower = name.toLowerCase();
  const byName = BY_NAME[lower];
  if (byName) return byName;
  const dot = lower.lastIndexOf(".");
  return dot > 0 ? BY_EXTENSION[lower.slice(dot + 1)] : undefined;
}

const BY_NAME: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  cmakelists: "cmake",
  "cmakelists.txt": "cmake",
  gemfile: "ruby",
  rakefile: "ruby",
  vagrantfile: "ruby",
  jenkinsfile: "groovy",
  ".bashrc": "bash",
  ".zshrc": "zsh",
  ".gitignore": "gitignore",
  ".env": "dotenv",
};

const BY_EXTENSION: Record<string, string> = Object.fromEntries(
  (
    [
      ["markdown", "md markdown mdown mkd"],
      ["typescript", "ts mts cts"],
      ["tsx", "tsx"],
      ["javascript", "js mjs cjs"],
      ["jsx", "jsx"],
      ["json", "json jsonc json5 geojson"],
      ["python", "py pyi pyw"],
      ["ruby", "rb gemspec rake"],
      ["go", "go"],
      ["rust", "rs"],
      ["java", "java"],
      ["kotlin", "kt kts"],
      ["scala", "scala sc"],
      ["swift", "swift"],
      ["c", "c h"],
      ["cpp", "cc cpp cxx hpp hh hxx"],
      ["csharp", "cs"],
      ["fsharp", "fs fsx"],
      ["php", "php"],
      ["perl", "pl pm"],
      ["lua", "lua"],
      ["r", "r"],
      ["julia", "jl"],
      ["haskell", "hs"],
      ["elixir", "ex exs"],
      ["erlang", "erl"],
      ["clojure", "clj cljs cljc edn"],
      ["dart", "dart"],
      ["zig", "zig"],
      ["nim", "nim"],
      ["ocaml", "ml mli"],
      ["bash", "sh bash"],
      ["zsh", "zsh"],
      ["fish", "fish"],
      ["powershell", "ps1 psm1"],
      ["batch", "bat cmd"],
      ["sql", "sql"],
      ["graphql", "graphql gql"],
      ["protobuf", "proto"],
      ["html", "html htm"],
      ["xml", "xml xsd xsl svg plist"],
      ["css", "css"],
      ["scss", "scss"],
      ["less", "less"],
      ["vue", "vue"],
      ["svelte", "svelte"],
      ["yaml", "yml yaml"],
      ["toml", "toml"],
      ["ini", "ini cfg conf"],
      ["diff", "diff patch"],
      ["tex", "tex sty cls"],
      ["rst", "rst"],
      ["hcl", "tf hcl"],
      ["nix", "nix"],
      ["solidity", "sol"],
      ["groovy", "groovy gradle"],
      ["csv", "csv"],
      ["text", "txt"],
    ] as const
  ).flatMap(([lang, exts]) => exts.split(" ").map((ext) => [ext, lang])),
);

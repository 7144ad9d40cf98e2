import { decodeHTML } from "entities";
import type { z } from "zod";
import { lazySchema } from "../../core/lazy-zod.js";
import { maybe, maybeListOf, maybeText } from "../../provider-http/json-fields.js";
import { localName } from "../formats/xml-elements.js";
import { attribute, childrenNamed, parseXml, rootElement, textOf } from "../formats/xml-tree.js";

/**
 * What a watch page's `ytInitialPlayerResponse` (the InnerTube player answer the page is built from) says of a
 * video, and its caption tracks' timed text in the formats YouTube serves: json3, and the XML of srv1/srv3.
 */

const Runs = lazySchema((z) =>
  z.object({ simpleText: maybeText(), runs: maybeListOf(z.object({ text: maybeText() })) }),
);

const PlayerResponse = lazySchema((z) =>
  z.object({
    playabilityStatus: maybe(z.object({ status: maybeText(), reason: maybeText() })),
    videoDetails: maybe(
      z.object({
        videoId: z.string(),
        title: z.string().min(1),
        lengthSeconds: maybeText(),
        channelId: maybeText(),
        author: maybeText(),
        shortDescription: maybeText(),
        viewCount: maybeText(),
        isLiveContent: maybe(z.boolean()),
      }),
    ),
    microformat: maybe(
      z.object({
        playerMicroformatRenderer: maybe(
          z.object({
            publishDate: maybeText(),
            uploadDate: maybeText(),
            ownerChannelName: maybeText(),
            ownerProfileUrl: maybeText(),
            category: maybeText(),
          }),
        ),
      }),
    ),
    captions: maybe(
      z.object({
        playerCaptionsTracklistRenderer: maybe(
          z.object({
            captionTracks: maybeListOf(
              z.object({
                baseUrl: z.string(),
                languageCode: maybeText(),
                kind: maybeText(),
                vssId: maybeText(),
                name: maybe(Runs()),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
);

export type PlayerData = z.output<ReturnType<typeof PlayerResponse>>;

export interface CaptionTrack {
  url: string;
  language?: string;
  /** The track's name as the player shows it ("English (auto-generated)"). */
  name?: string;
  generated: boolean;
}

export type PlayerParse = { ok: true; player: PlayerData } | { ok: false; missing: string };

/** The watch page's player answer, found where the page assigns it and read as JSON. */
export function playerFromWatchPage(html: string): PlayerParse {
  const json = assignedObject(html, "ytInitialPlayerResponse");
  if (!json) return { ok: false, missing: "ytInitialPlayerResponse" };
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    return { ok: false, missing: "ytInitialPlayerResponse as JSON" };
  }
  const parsed = PlayerResponse().safeParse(body);
  if (!parsed.success) return { ok: false, missing: "ytInitialPlayerResponse" };
  return { ok: true, player: parsed.data };
}

/** The caption tracks the player lists, the uploader's own before YouTube's speech recognition. */
export function captionTracks(player: PlayerData): CaptionTrack[] {
  const tracks = player.captions?.playerCaptionsTracklistRenderer?.captionTracks ?? [];
  return tracks
    .map((t) => ({
      url: t.baseUrl,
      language: t.languageCode,
      name: t.name?.simpleText ?? (t.name?.runs.map((r) => r.text ?? "").join("") || undefined),
      generated: t.kind === "asr",
    }))
    .sort((a, b) => Number(a.generated) - Number(b.generated));
}

/**
 * The JSON object a script assigns to `name` (`var ytInitialPlayerResponse = {…};`), cut out by matching its
 * braces outside strings: the page holds other scripts and objects before and after it.
 */
export function assignedObject(html: string, name: string): string | undefined {
  // `var ytInitialPlayerResponse = {` or `window["ytInitialPlayerResponse"] = {`.
  const at = new RegExp(`\\b${name}["']?\\]?\\s*=\\s*\\{`).exec(html);
  if (!at) return undefined;
  const start = at.index + at[0].length - 1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return html.slice(start, i + 1);
  }
  return undefined;
}

/** One caption: when it starts, and its words. */
export interface Caption {
  startMs: number;
  text: string;
}

const Json3 = lazySchema((z) =>
  z.object({
    events: maybeListOf(
      z.object({
        tStartMs: z.number(),
        segs: maybeListOf(z.object({ utf8: maybeText() })),
      }),
    ),
  }),
);

/**
 * A caption track's timed text: json3 (`events[].segs[].utf8`), or XML, either srv1's
 * `<transcript><text start dur>` in seconds or srv3's `<timedtext><body><p t d>` in milliseconds.
 * Undefined when the body is none of them.
 */
export function timedText(body: string): Caption[] | undefined {
  const text = body.trimStart();
  if (!text) return [];
  if (text.startsWith("{")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = Json3().safeParse(json);
    if (!parsed.success) return undefined;
    return parsed.data.events.flatMap((e) => {
      const words = e.segs.map((s) => s.utf8 ?? "").join("");
      return words.trim() ? [{ startMs: e.tStartMs, text: words }] : [];
    });
  }
  if (!text.startsWith("<")) return undefined;
  const root = rootElement(parseXml(text));
  if (!root) return undefined;
  if (localName(root.name) === "transcript")
    return childrenNamed(root, "text").flatMap((t) =>
      caption(Number(attribute(t, "start")) * 1000, textOf(t)),
    );
  if (localName(root.name) === "timedtext") {
    const body = childrenNamed(root, "body")[0];
    return body ? childrenNamed(body, "p").flatMap((p) => caption(Number(attribute(p, "t")), textOf(p))) : [];
  }
  return undefined;
}

function caption(startMs: number, text: string): Caption[] {
  // YouTube escapes a caption's text twice ("I&amp;#39;m"): the XML's decoding leaves the caption's own entities.
  const words = decodeHTML(text);
  return Number.isFinite(startMs) && words.trim() ? [{ startMs, text: words }] : [];
}

const Oembed = lazySchema((z) =>
  z.object({ title: z.string().min(1), author_name: maybeText(), author_url: maybeText() }),
);

export interface OembedVideo {
  title: string;
  author?: string;
  authorUrl?: string;
}

/** oEmbed's answer (https://oembed.com §2.3.4, as youtube.com/oembed gives it): the title and the channel. */
export function oembedVideo(body: unknown): OembedVideo | undefined {
  const parsed = Oembed().safeParse(body);
  if (!parsed.success) return undefined;
  const { title, author_name, author_url } = parsed.data;
  return {
    title,
    ...(author_name ? { author: author_name } : {}),
    ...(author_url ? { authorUrl: author_url } : {}),
  };
}

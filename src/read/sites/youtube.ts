import type { Deadline } from "../../core/deadline.js";
import type { Failure } from "../../core/status.js";
import { fetchSite, MAX_SITE_BYTES } from "./site-json.js";
import { onHosts, readerDrift, type SiteContext, type SiteOutcome, type SiteReader } from "./site-reader.js";
import type { Caption, CaptionTrack, OembedVideo, PlayerData } from "./youtube-parse.js";

const NAME = "youtube";
const HOSTS = ["youtube.com", "*.youtube.com", "youtu.be"];
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const TRANSCRIPT_TIMEOUT_MS = 8000;
const OEMBED_TIMEOUT_MS = 5000;
/** A transcript paragraph: captions are a few words each; a reader wants a timestamp about every half minute. */
const PARAGRAPH_MS = 30_000;
// A transcript of many hours is still read in windows; past this it is cut with a note.
const MAX_TRANSCRIPT_CHARS = 400_000;

/** The video id of a watch, youtu.be, Shorts, live or embed URL. */
export function youtubeIdOf(url: URL): string | undefined {
  const path = url.pathname.split("/").filter(Boolean);
  let id: string | null | undefined;
  if (url.hostname.toLowerCase() === "youtu.be") id = path.length === 1 ? path[0] : undefined;
  else if (path.length === 1 && path[0] === "watch") id = url.searchParams.get("v");
  else if (path.length === 2 && ["shorts", "live", "embed"].includes(path[0])) id = path[1];
  return id && VIDEO_ID.test(id) ? id : undefined;
}

/**
 * YouTube videos from the watch page's player data (title, channel, date, duration, description, caption
 * tracks) and a caption track's timed text for the transcript; oEmbed, YouTube's cheap public endpoint, names
 * the title and channel when the page cannot be read (a consent wall, a block).
 */
export const youtubeReader: SiteReader = {
  name: NAME,
  hosts: HOSTS,
  takes: (url) => youtubeIdOf(url) !== undefined,
  async read(url, ctx, deadline) {
    const id = youtubeIdOf(url)!;
    const parse = await import("./youtube-parse.js");
    const watch = `https://www.youtube.com/watch?v=${id}`;
    const page = await fetchSite(`${watch}&hl=en`, ctx, deadline, {
      headers: { accept: "text/html" },
      maxBytes: MAX_SITE_BYTES,
    });
    const player = page.ok ? parse.playerFromWatchPage(page.res.text()) : undefined;
    if (player?.ok && player.player.videoDetails) {
      const tracks = parse.captionTracks(player.player);
      const transcript = await transcriptOf(
        tracks,
        ctx,
        deadline.child(TRANSCRIPT_TIMEOUT_MS),
        parse.timedText,
      );
      return videoPage(id, player.player, transcript);
    }
    const why = !page.ok
      ? page
      : onHosts(new URL(page.res.finalUrl).hostname, ["consent.youtube.com"])
        ? consentWall()
        : player?.ok
          ? unavailable(player.player)
          : readerDrift(
              NAME,
              `no ${player?.ok === false ? player.missing : "player data"} in the watch page`,
            );
    ctx.log(`read: youtube watch page for ${id}: ${why.message}; asking oEmbed`);
    const oembed = await fromOembed(watch, ctx, deadline.child(OEMBED_TIMEOUT_MS), parse.oembedVideo);
    return oembed ? oembedPage(id, oembed, why) : why;
  },
};

/** Where YouTube asks a visitor from some countries to accept its cookies before any video. */
function consentWall(): { ok: false } & Failure {
  return {
    ok: false,
    status: "blocked",
    code: "consent",
    message: "YouTube answered with its cookie consent page",
  };
}

function unavailable(player: PlayerData): { ok: false } & Failure {
  const status = player.playabilityStatus;
  const reason = status?.reason ? `: ${status.reason}` : "";
  return { ok: false, status: "empty", code: "unavailable", message: `YouTube: video unavailable${reason}` };
}

type Transcript =
  | { ok: true; track: CaptionTrack; captions: Caption[] }
  | { ok: false; why: string; track?: CaptionTrack };

async function transcriptOf(
  tracks: CaptionTrack[],
  ctx: SiteContext,
  deadline: Deadline,
  parse: (body: string) => Caption[] | undefined,
): Promise<Transcript> {
  const track = tracks[0];
  if (!track) return { ok: false, why: "no transcript offered: the video has no captions" };
  let url: URL;
  try {
    url = new URL(track.url, "https://www.youtube.com/");
  } catch {
    return { ok: false, track, why: "the caption track's address is not a URL" };
  }
  // The track's address comes from the page: it is followed only on YouTube's own hosts.
  if (!onHosts(url.hostname, HOSTS))
    return { ok: false, track, why: "the caption track is not on youtube.com" };
  url.searchParams.set("fmt", "json3");
  const got = await fetchSite(url.href, ctx, deadline, {
    headers: { accept: "application/json, text/xml;q=0.9" },
    maxBytes: MAX_SITE_BYTES,
  });
  if (!got.ok) return { ok: false, track, why: `the transcript could not be fetched (${got.message})` };
  const captions = parse(got.res.text());
  if (!captions) return { ok: false, track, why: "the transcript came in a form websift does not know" };
  if (captions.length === 0) return { ok: false, track, why: "YouTube sent the transcript empty" };
  return { ok: true, track, captions };
}

/** The video as markdown: its facts, the description as its uploader wrote it, then the transcript. */
function videoPage(id: string, player: PlayerData, transcript: Transcript): SiteOutcome {
  const details = player.videoDetails!;
  const micro = player.microformat?.playerMicroformatRenderer;
  const channel = details.author ?? micro?.ownerChannelName;
  const channelUrl = details.channelId ? `https://www.youtube.com/channel/${details.channelId}` : undefined;
  const published = micro?.publishDate ?? micro?.uploadDate;
  const seconds = Number(details.lengthSeconds);
  const facts = [
    channel && `**Channel:** ${channel}${channelUrl ? ` (${channelUrl})` : ""}`,
    published && `**Published:** ${published}`,
    seconds > 0
      ? `**Duration:** ${clock(seconds * 1000)}${details.isLiveContent ? " (a past live stream)" : ""}`
      : details.isLiveContent && "**Live stream**",
    details.viewCount &&
      /^\d+$/.test(details.viewCount) &&
      `**Views:** ${Number(details.viewCount).toLocaleString("en-US")}`,
    micro?.category && `**Category:** ${micro.category}`,
  ].filter(Boolean);
  const description = details.shortDescription?.trim();
  const parts = [
    `# ${details.title}`,
    facts.join("\n"),
    `## Description\n\n${description || "(no description)"}`,
    transcriptSection(transcript),
  ].filter(Boolean);
  return {
    ok: true,
    title: details.title,
    markdown: parts.join("\n\n"),
    via: transcript.ok ? "watch page + timedtext" : "watch page",
    finalUrl: `https://www.youtube.com/watch?v=${id}`,
    links: channelUrl ? [channelUrl] : [],
    ...(channel ? { byline: channel } : {}),
    ...(published ? { published } : {}),
  };
}

function transcriptSection(transcript: Transcript): string {
  if (!transcript.ok) {
    const name = transcript.track?.name ? `: ${transcript.track.name}` : "";
    return `## Transcript${name}\n\n${capitalised(transcript.why)}.`;
  }
  const { track, captions } = transcript;
  const label = track.name ?? track.language ?? (track.generated ? "auto-generated" : undefined);
  const paragraphs: string[] = [];
  let current: string[] = [];
  let startedAt = captions[0].startMs;
  let chars = 0;
  let cut = false;
  for (const c of captions) {
    if (c.startMs - startedAt >= PARAGRAPH_MS && current.length) {
      paragraphs.push(`[${clock(startedAt)}] ${current.join(" ")}`);
      current = [];
      startedAt = c.startMs;
    }
    const words = c.text.replace(/\s+/g, " ").trim();
    chars += words.length + 1;
    if (chars > MAX_TRANSCRIPT_CHARS) {
      cut = true;
      break;
    }
    current.push(words);
  }
  if (current.length) paragraphs.push(`[${clock(startedAt)}] ${current.join(" ")}`);
  if (cut) paragraphs.push(`[Transcript: cut at ${clock(startedAt)} of the video]`);
  return `## Transcript${label ? `: ${label}` : ""}\n\n${paragraphs.join("\n\n")}`;
}

/** oEmbed's title and channel for a watch URL (any failure is no answer: it is the fallback's fallback). */
async function fromOembed(
  watch: string,
  ctx: SiteContext,
  deadline: Deadline,
  parse: (body: unknown) => OembedVideo | undefined,
): Promise<OembedVideo | undefined> {
  const url = `https://www.youtube.com/oembed?format=json&url=${encodeURIComponent(watch)}`;
  const got = await fetchSite(url, ctx, deadline, {
    headers: { accept: "application/json" },
    maxBytes: MAX_SITE_BYTES,
  });
  return got.ok ? parse(got.res.json()) : undefined;
}

function oembedPage(id: string, oembed: OembedVideo, why: Failure): SiteOutcome {
  const channel =
    oembed.author && `**Channel:** ${oembed.author}${oembed.authorUrl ? ` (${oembed.authorUrl})` : ""}`;
  const note = `The watch page could not be read (${why.message}), so only the title and channel are known: no description or transcript.`;
  return {
    ok: true,
    title: oembed.title,
    markdown: [`# ${oembed.title}`, channel, note].filter(Boolean).join("\n\n"),
    via: "oEmbed",
    finalUrl: `https://www.youtube.com/watch?v=${id}`,
    links: oembed.authorUrl ? [oembed.authorUrl] : [],
    ...(oembed.author ? { byline: oembed.author } : {}),
  };
}

/** 83_000 ms → "1:23"; an hour or more → "1:02:03". */
export function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

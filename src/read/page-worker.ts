/**
 * What the page pool's worker threads run: parsing and extraction (and PDF parsing), away from the caller's
 * event loop. Each export is one kind of task, chosen by name.
 */
import { Deadline } from "../core/deadline.js";
import { type FeedOutcome, feedToMarkdownHere } from "./formats/feed.js";
import { type PdfOutcome, pdfToTextHere } from "./formats/pdf.js";
import { documentTask } from "./formats/read-document.js";
import { extractHere, type PageExtraction } from "./page-pool.js";
import { type GoPageOutcome, goPackagePage } from "./sites/go-package-page.js";
import { threadFromPage } from "./sites/stackexchange-page.js";
import type { SeThread } from "./sites/stackexchange-thread.js";
import { type Article, articleMarkdown } from "./sites/wikipedia-article.js";
import { type SizedText, type SizeOptions, sizeText } from "./size.js";

export function extract(task: { html: string; url: string }): Promise<PageExtraction> {
  return extractHere(task.html, task.url);
}

export function size(task: { markdown: string; options: SizeOptions }): SizedText {
  return sizeText(task.markdown, task.options);
}

/** The caller's deadline is checked here too, between pages; the caller terminates the thread when it passes. */
export function pdf(task: {
  bytes: Uint8Array;
  remainingMs: number;
  maxPages?: number;
  maxInflatedBytes?: number;
}): Promise<PdfOutcome> {
  const { bytes, remainingMs, maxPages, maxInflatedBytes } = task;
  return pdfToTextHere(bytes, { deadline: Deadline.after(remainingMs), maxPages, maxInflatedBytes });
}

/** A Stack Exchange question page's own markup, when the site's API could not answer. */
export function stackExchangePage(task: {
  html: string;
  url: string;
  linked?: number;
}): Promise<SeThread | undefined> {
  return threadFromPage(task.html, task.url, task.linked);
}

/** A large feed, parsed and converted here; the caller terminates the thread when its deadline passes. */
export function feed(task: {
  bytes: Uint8Array;
  url: string;
  charset?: string;
  remainingMs: number;
}): Promise<FeedOutcome> {
  return feedToMarkdownHere(task.bytes, task.url, Deadline.after(task.remainingMs), task.charset);
}

/** An office document or e-book: unpacked within the archive caps, its deadline checked between parts. */
export const document = documentTask;

/** A Wikipedia article's parser output as markdown (a long article's HTML is megabytes). */
export function wikipediaArticle(task: {
  html: string;
  displaytitle?: string;
  url: string;
}): Promise<Article> {
  return articleMarkdown(task.html, task.displaytitle, task.url);
}

/** A pkg.go.dev unit page as a package page. */
export function goPackage(task: {
  html: string;
  url: string;
  unit: { path: string; version?: string };
}): Promise<GoPageOutcome> {
  return goPackagePage(task.html, task.url, task.unit);
}

import { type Document, DomHandler, type DomHandlerOptions } from "domhandler";
import { type Handler, Parser, type ParserOptions } from "htmlparser2";

/**
 * htmlparser2's Parser with an open-element stack that is linear in nesting depth. Upstream 10.1.0 keeps its
 * open elements innermost first and inserts each at the array's front (`unshift`), and looks a closing tag up
 * from the front (`indexOf`), so 100,000 nested elements cost 5·10⁹ element moves: 17 s for one page. A local
 * patch of node_modules would not reach websift's users (npm does not apply a dependency's patches), so the
 * methods that touch the stack are overridden here and keep it innermost last, with a count per tag name so a
 * stray closing tag is dismissed without a scan. They mirror htmlparser2 10.1.0's own (package.json pins that
 * version: a new one must be compared with these before the pin moves), event for event.
 */

/** The members of htmlparser2 10.1.0's Parser that the overrides below read or replace. */
interface ParserInternals {
  startIndex: number;
  endIndex: number;
  tagname: string;
  attribs: Record<string, string> | null;
  readonly cbs: Partial<Handler>;
  readonly htmlMode: boolean;
  readonly recognizeSelfClosing: boolean;
  readonly lowerCaseTagNames: boolean;
  openTagStart: number;
  getSlice(start: number, end: number): string;
  endOpenTag(isImplied: boolean): void;
  emitOpenTag(name: string): void;
  closeCurrentTag(isOpenImplied: boolean): void;
  onopentagend(endIndex: number): void;
  isVoidElement(name: string): boolean;
  onclosetag(start: number, endIndex: number): void;
  onselfclosingtag(endIndex: number): void;
  onend(): void;
  reset(): void;
}

type PublicParser = Omit<Parser, keyof ParserInternals>;
const OpenParser = Parser as unknown as new (
  cbs?: Partial<Handler> | null,
  options?: ParserOptions,
) => PublicParser & ParserInternals;

// htmlparser2 10.1.0's tables (Parser.js), which it does not export.
const formTags = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const pTag = new Set(["p"]);
const tableSectionTags = new Set(["thead", "tbody"]);
const ddtTags = new Set(["dd", "dt"]);
const rtpTags = new Set(["rt", "rp"]);
const openImpliesClose = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ["p", pTag],
  ["h1", pTag],
  ["h2", pTag],
  ["h3", pTag],
  ["h4", pTag],
  ["h5", pTag],
  ["h6", pTag],
  ["select", formTags],
  ["input", formTags],
  ["output", formTags],
  ["button", formTags],
  ["datalist", formTags],
  ["textarea", formTags],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", ddtTags],
  ["dt", ddtTags],
  ["address", pTag],
  ["article", pTag],
  ["aside", pTag],
  ["blockquote", pTag],
  ["details", pTag],
  ["div", pTag],
  ["dl", pTag],
  ["fieldset", pTag],
  ["figcaption", pTag],
  ["figure", pTag],
  ["footer", pTag],
  ["form", pTag],
  ["header", pTag],
  ["hr", pTag],
  ["main", pTag],
  ["nav", pTag],
  ["ol", pTag],
  ["pre", pTag],
  ["section", pTag],
  ["table", pTag],
  ["ul", pTag],
  ["rt", rtpTags],
  ["rp", rtpTags],
  ["tbody", tableSectionTags],
  ["tfoot", tableSectionTags],
]);
const foreignContextElements = new Set(["math", "svg"]);
const htmlIntegrationElements = new Set([
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignobject",
  "desc",
  "title",
]);

export class LinearParser extends OpenParser {
  /** Open elements, innermost last. */
  private readonly open: string[] = [];
  /** How many elements of each name are open. */
  private readonly openCounts = new Map<string, number>();
  /** Whether each open foreign or integration element starts foreign content, innermost last. */
  private readonly foreign: boolean[];

  constructor(cbs?: Partial<Handler> | null, options: ParserOptions = {}) {
    super(cbs, options);
    this.foreign = [!this.htmlMode];
  }

  override emitOpenTag(name: string): void {
    this.openTagStart = this.startIndex;
    this.tagname = name;
    const impliesClose = this.htmlMode && openImpliesClose.get(name);
    if (impliesClose) {
      while (this.open.length > 0 && impliesClose.has(this.open[this.open.length - 1]!)) {
        this.cbs.onclosetag?.(this.popOpen(), true);
      }
    }
    if (!this.isVoidElement(name)) {
      this.open.push(name);
      this.openCounts.set(name, (this.openCounts.get(name) ?? 0) + 1);
      if (this.htmlMode) {
        if (foreignContextElements.has(name)) this.foreign.push(true);
        else if (htmlIntegrationElements.has(name)) this.foreign.push(false);
      }
    }
    this.cbs.onopentagname?.(name);
    if (this.cbs.onopentag) this.attribs = {};
  }

  override onclosetag(start: number, endIndex: number): void {
    this.endIndex = endIndex;
    let name = this.getSlice(start, endIndex);
    if (this.lowerCaseTagNames) name = name.toLowerCase();
    if (this.htmlMode && (foreignContextElements.has(name) || htmlIntegrationElements.has(name))) {
      // Upstream shifts its innermost entry, even the base entry when no foreign element is open.
      this.foreign.pop();
    }
    if (!this.isVoidElement(name)) {
      if (this.openCounts.get(name)) {
        const pos = this.open.lastIndexOf(name);
        while (this.open.length > pos) {
          const implied = this.open.length - 1 !== pos;
          this.cbs.onclosetag?.(this.popOpen(), implied);
        }
      } else if (this.htmlMode && name === "p") {
        // Implicit open before close
        this.emitOpenTag("p");
        this.closeCurrentTag(true);
      }
    } else if (this.htmlMode && name === "br") {
      this.cbs.onopentagname?.("br");
      this.cbs.onopentag?.("br", {}, true);
      this.cbs.onclosetag?.("br", false);
    }
    this.startIndex = endIndex + 1;
  }

  override onselfclosingtag(endIndex: number): void {
    this.endIndex = endIndex;
    if (this.recognizeSelfClosing || this.foreign[this.foreign.length - 1]) {
      this.closeCurrentTag(false);
      this.startIndex = endIndex + 1;
    } else {
      this.onopentagend(endIndex);
    }
  }

  override closeCurrentTag(isOpenImplied: boolean): void {
    const name = this.tagname;
    this.endOpenTag(isOpenImplied);
    if (this.open[this.open.length - 1] === name) {
      this.cbs.onclosetag?.(name, !isOpenImplied);
      this.popOpen();
    }
  }

  override onend(): void {
    if (this.cbs.onclosetag) {
      this.endIndex = this.startIndex;
      for (let i = this.open.length - 1; i >= 0; i--) this.cbs.onclosetag(this.open[i]!, true);
    }
    this.cbs.onend?.();
  }

  override reset(): void {
    // The base constructor resets nothing of ours; `reset` is only called on a constructed parser.
    this.open.length = 0;
    this.openCounts.clear();
    this.foreign.length = 0;
    this.foreign.push(!this.htmlMode);
    super.reset();
  }

  private popOpen(): string {
    const name = this.open.pop()!;
    this.openCounts.set(name, this.openCounts.get(name)! - 1);
    return name;
  }
}

/** htmlparser2's `parseDocument`, on the linear parser. */
export function parseDocument(html: string, options: ParserOptions & DomHandlerOptions = {}): Document {
  const handler = new DomHandler(undefined, options);
  new LinearParser(handler, options).end(html);
  return handler.root;
}

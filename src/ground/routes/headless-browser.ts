// The answer routes share the reader's headless Chromium: one browser per process, launched and guarded in one place.
export { type BrowserLease, closeHeadless, leaseHeadless } from "../../read/guarded-browser.js";

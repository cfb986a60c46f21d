import type { HeadersFunction } from "@remix-run/node";

// Remix does not copy an action's headers onto a document response by itself: routes whose
// actions can answer 429 re-export this so Retry-After reaches the browser.
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

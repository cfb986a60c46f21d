// The only paths other sites may frame or load cross-origin: the badge and the embeddable card
// (badge.server.tsx). server.ts lifts helmet's X-Frame-Options, CSP and CORP for them; the
// routes set their own.
export const EMBEDDABLE_PATH = /^\/(?:embed\/u\/\d{1,9}|u\/\d{1,9}\/badge\.svg)$/;

export function isEmbeddablePath(path: string): boolean {
  return EMBEDDABLE_PATH.test(path);
}

// Engine versions as the product names and orders them. Plain functions: the pages, the
// notifications and the re-grade job share them (the engine's own version is app/grading/version.ts).

/** The major of an engine version ("3.0.0" is v3), as the trader reads it. */
export function engineMajor(version: string): string {
  return version.split(".")[0] || version;
}

/**
 * Whether a stored grade's version is older than `current`, part by part as numbers ("10.0.0" is
 * newer than "9.1.0"). A version that does not read as numbers (a hand-made row) counts as older,
 * so it is re-made; a newer one never is (an old process during a rolling deploy must not undo it).
 */
export function isOlderEngineVersion(version: string, current: string): boolean {
  const parts = (v: string) => v.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  const a = parts(version);
  const b = parts(current);
  if (a.some(Number.isNaN)) return version !== current;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** Where a version's changelog entry is shown to anyone: its section of the glossary. */
export function changelogPath(version: string): string {
  return `/glossary#${changelogAnchor(version)}`;
}

export function changelogAnchor(version: string): string {
  return `engine-v${version}`;
}

// Trader-search keywords as the benches draw them from a sample of real users: username prefixes
// (30 %), full names (25 %), last-name prefixes (25 %) and first names with two letters swapped
// (20 %). `rand` is the caller's generator, so its later draws stay as they were.
export type KeywordUser = { username: string | null; first_name: string | null; last_name: string | null };

export function searchKeywords(users: KeywordUser[], n: number, rand: () => number): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: n }, () => {
    const u = pick(users);
    const r = rand();
    if (r < 0.3) return (u.username ?? "trader").slice(0, 3 + Math.floor(rand() * 8));
    if (r < 0.55) return `${u.first_name ?? "Ann"} ${u.last_name ?? ""}`.trim();
    if (r < 0.8) return (u.last_name ?? "Smith").slice(0, 4);
    const w = u.first_name ?? "Maria";
    return w.length > 4 ? w.slice(0, 2) + w[3] + w[2] + w.slice(4) : w + "x";
  });
}

/**
 * Keywords the way users type them into the search box: the first 3–5 letters of a first name, a
 * last name or a username, lower case (issue 35 measured 300 such keywords from outside).
 */
export function typedPrefixes(users: KeywordUser[], n: number, rand: () => number): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: n }, () => {
    const u = pick(users);
    const source = pick([u.first_name, u.last_name, u.username]) ?? u.username ?? "trader";
    return source.toLowerCase().slice(0, 3 + Math.floor(rand() * 3));
  });
}

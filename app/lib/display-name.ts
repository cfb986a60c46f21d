export type NameFields = {
  first_name?: string | null;
  last_name?: string | null;
  name?: string | null;
  username?: string | null;
};

const clean = (s: string | null | undefined) => (s ?? "").trim();

// PRODUCT §3: first and last name together if both exist, else whichever exists, else name, else username.
export function displayName(user: NameFields): string {
  const first = clean(user.first_name);
  const last = clean(user.last_name);
  if (first && last) return `${first} ${last}`;
  return first || last || clean(user.name) || clean(user.username);
}

export function initials(user: NameFields): string {
  const words = displayName(user).split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0]!.toUpperCase());
  return letters.join("") || "?";
}

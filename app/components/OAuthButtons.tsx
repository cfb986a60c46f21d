/** "Continue with Google / Apple": plain links to the sign-in redirects (they create the account when new). */
export function OAuthButtons({ next }: { next?: string }) {
  const q = next ? `?next=${encodeURIComponent(next)}` : "";
  return (
    <div className="card" style={{ marginTop: "1rem", display: "flex", flexDirection: "column", gap: "0.6rem" }}>
      <a className="btn btn-ghost" href={`/oauth/google-login${q}`}>
        Continue with Google
      </a>
      <a className="btn btn-ghost" href={`/oauth/apple-login${q}`}>
        Continue with Apple
      </a>
    </div>
  );
}

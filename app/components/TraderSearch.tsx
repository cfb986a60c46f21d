import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { displayName } from "~/lib/display-name";
import { Avatar } from "./Avatar";

type Trader = { id: number; first_name: string | null; last_name: string | null; username: string | null; avatar: string | null };

export const SEARCH_MIN = 3;
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The header's trader search (SPEC §5): from 3 typed characters, debounced 300 ms, a popover of
 * results linking to /u/:id; below 3 characters the results clear. It is a GET form to /search, so
 * without JavaScript (or on Enter) it opens the results page.
 */
export function TraderSearch() {
  const [keyword, setKeyword] = useState("");
  const [results, setResults] = useState<Trader[] | null>(null);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const request = useRef<AbortController | null>(null);
  const box = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const k = keyword.trim();
    if (k.length < SEARCH_MIN) {
      request.current?.abort();
      setResults(null);
      return;
    }
    const timer = setTimeout(async () => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      try {
        const res = await fetch(`/api/portal/search/trader?keyword=${encodeURIComponent(k)}`, { signal: controller.signal, headers: { accept: "application/json" } });
        if (!res.ok) return setResults([]);
        const body = (await res.json()) as { data: Trader[] };
        setResults(body.data);
        setOpen(true);
      } catch {
        /* aborted or offline: keep what is shown */
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [keyword]);

  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("click", close);
    return () => document.removeEventListener("click", close);
  }, []);

  const show = open && results !== null;
  return (
    <form
      method="get"
      action="/search"
      role="search"
      aria-label="Trader search"
      className="header-search"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      <label htmlFor="trader-search" className="visually-hidden">
        Search traders
      </label>
      <input
        id="trader-search"
        name="keyword"
        type="search"
        placeholder="Search traders"
        minLength={3}
        autoComplete="off"
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onFocus={() => setOpen(true)}
        aria-controls={show ? listId : undefined}
        aria-expanded={show}
        role="combobox"
        aria-autocomplete="list"
      />
      {show ? (
        <div className="search-popover" id={listId} role={results!.length ? "listbox" : "status"} aria-label="Traders">
          {results!.length === 0 ? (
            <p className="muted small search-empty">No traders found.</p>
          ) : (
            results!.map((t) => (
              <Link key={t.id} to={`/u/${t.id}`} role="option" aria-selected={false} className="search-result" onClick={() => setOpen(false)}>
                <Avatar user={t} size={28} />
                <span>
                  <strong>{displayName(t) || "Trader"}</strong>
                  {t.username ? <span className="muted small"> @{t.username}</span> : null}
                </span>
              </Link>
            ))
          )}
        </div>
      ) : null}
    </form>
  );
}

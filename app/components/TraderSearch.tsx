import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { displayName } from "~/lib/display-name";
import type { Tier } from "~/lib/vocabulary";
import { Avatar } from "./Avatar";
import { TraderGrade } from "./GradeBadge";

type Trader = {
  id: number;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  avatar: string | null;
  tier: Tier | null;
  score: number | null;
};

export const SEARCH_MIN = 3;
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The header's trader search (PRODUCT §5): from 3 typed characters, debounced 300 ms, a popover of
 * results linking to /u/:id; below 3 characters the results clear. It is a GET form to /search, so
 * without JavaScript (or on Enter with no result highlighted) it opens the results page.
 * Keyboard (ARIA combobox pattern): ArrowDown/ArrowUp move the active option, Enter opens it, Escape closes.
 */
export function TraderSearch() {
  const [keyword, setKeyword] = useState("");
  const [results, setResults] = useState<Trader[] | null>(null);
  const [open, setOpen] = useState(false);
  // Index of the option highlighted with the arrow keys; -1 when none (Enter then submits the form).
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;
  const close = () => {
    setOpen(false);
    setActive(-1);
  };
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
        const res = await fetch(`/api/portal/search/trader?keyword=${encodeURIComponent(k)}`, {
          signal: controller.signal,
          headers: { accept: "application/json" },
        });
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
    const onDocumentClick = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) close();
    };
    document.addEventListener("click", onDocumentClick);
    return () => document.removeEventListener("click", onDocumentClick);
  }, []);

  const show = open && results !== null;
  // New results: no option is highlighted any more.
  useEffect(() => setActive(-1), [results]);
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  }, [active]); // eslint-disable-line react-hooks/exhaustive-deps -- optionId is derived from a stable id

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!open && results !== null) setOpen(true);
      const n = results?.length ?? 0;
      if (n === 0) return;
      e.preventDefault(); // keeps the caret where it is
      const down = e.key === "ArrowDown";
      setActive((a) => (!show || a < 0 ? (down ? 0 : n - 1) : (a + (down ? 1 : n - 1)) % n));
    } else if (e.key === "Enter" && show && active >= 0 && active < results!.length) {
      e.preventDefault(); // opens the highlighted trader instead of the results page
      close();
      navigate(`/u/${results![active]!.id}`);
    } else if (e.key === "Escape" && show) {
      e.preventDefault(); // closes the list; the typed text stays
      close();
    }
  };
  return (
    <form method="get" action="/search" role="search" aria-label="Trader search" className="header-search" ref={box}>
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
        onKeyDown={onKeyDown}
        aria-controls={show ? listId : undefined}
        aria-activedescendant={show && active >= 0 ? optionId(active) : undefined}
        aria-expanded={show}
        role="combobox"
        aria-autocomplete="list"
      />
      {show ? (
        <div className="search-popover" id={listId} role={results!.length ? "listbox" : "status"} aria-label="Traders">
          {results!.length === 0 ? (
            <p className="muted small search-empty">No traders found.</p>
          ) : (
            results!.map((t, i) => (
              <Link
                key={t.id}
                id={optionId(i)}
                to={`/u/${t.id}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? "search-result is-active" : "search-result"}
                onClick={close}
              >
                <Avatar user={t} size={28} />
                <span>
                  <strong>{displayName(t) || "Trader"}</strong>
                  {t.username ? <span className="muted small"> @{t.username}</span> : null}
                </span>
                <TraderGrade tier={t.tier} score={t.score} />
              </Link>
            ))
          )}
        </div>
      ) : null}
    </form>
  );
}

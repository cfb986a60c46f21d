import { useEffect, useRef } from "react";

/**
 * Calls `refresh` every `intervalMs` while the page is visible, and at once when the page becomes
 * visible again or regains focus (docs/DECISIONS.md 98: live updates by polling). A hidden tab asks
 * nothing.
 */
export function usePolling(refresh: () => void, intervalMs: number, enabled = true) {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const visible = () => document.visibilityState === "visible";
    const restart = () => {
      clearInterval(timer);
      timer = setInterval(() => visible() && latest.current(), intervalMs);
    };
    const wake = () => {
      if (!visible()) return;
      latest.current();
      restart();
    };
    restart();
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("focus", wake);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", wake);
      window.removeEventListener("focus", wake);
    };
  }, [intervalMs, enabled]);
}

import { useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useReducer, useRef, useSyncExternalStore } from "react";
import { LIVE_KINDS, type LiveEventMap, type LiveReady } from "./live-events";

/**
 * The browser's end of the live channel (GET /api/portal/events, DECISIONS 187): one EventSource
 * per tab, shared by every component that listens, opened by the first and closed shortly after
 * the last leaves (a navigation unmounts and mounts them again). While it is not connected,
 * `useLiveConnected()` is false and the pages' polling takes over (usePolling's `enabled`).
 */
export type LiveMessage =
  | { [K in keyof LiveEventMap]: { kind: K; data: LiveEventMap[K] } }[keyof LiveEventMap]
  | { kind: "ready"; data: LiveReady };

type Listener = (message: LiveMessage) => void;

const listeners = new Set<Listener>();
const statusListeners = new Set<() => void>();
let source: EventSource | null = null;
let connected = false;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
let closeTimer: ReturnType<typeof setTimeout> | undefined;
/** A refused or unreachable stream (503 past the bound, 401, a proxy's error) is tried again after this long. */
const REOPEN_MS = 20_000;

function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const notify of statusListeners) notify();
}

let afterLoad = false;

function open() {
  if (source || typeof EventSource === "undefined") return;
  // A stream opened before the page's load event holds that event (and whatever waits for it, the
  // service worker's registration, a test's waitForURL) until the stream ends: open it after.
  if (document.readyState !== "complete") {
    if (!afterLoad) {
      afterLoad = true;
      window.addEventListener(
        "load",
        () => {
          afterLoad = false;
          if (listeners.size) open();
        },
        { once: true },
      );
    }
    return;
  }
  const es = new EventSource("/api/portal/events");
  source = es;
  const dispatch = (kind: LiveMessage["kind"]) => (event: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const listener of [...listeners]) listener({ kind, data } as LiveMessage);
  };
  es.addEventListener("ready", (event) => {
    setConnected(true);
    dispatch("ready")(event as MessageEvent<string>);
  });
  for (const kind of LIVE_KINDS) es.addEventListener(kind, dispatch(kind) as EventListener);
  es.onerror = () => {
    // CONNECTING: the browser reconnects by itself (with Last-Event-ID). CLOSED: it gave up (a
    // non-200 answer): polling carries on, and another try comes later.
    setConnected(false);
    if (es.readyState !== EventSource.CLOSED) return;
    source = null;
    clearTimeout(reopenTimer);
    reopenTimer = setTimeout(() => listeners.size && open(), REOPEN_MS * (1 + Math.random() / 2));
  };
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  clearTimeout(closeTimer);
  open();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    closeTimer = setTimeout(() => {
      if (listeners.size) return;
      source?.close();
      source = null;
      clearTimeout(reopenTimer);
      setConnected(false);
    }, 5_000);
  };
}

/** Calls `handler` with every live event while mounted (the latest handler; no re-subscribe per render). */
export function useLive(handler: Listener, enabled = true) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!enabled) return;
    return subscribe((message) => latest.current(message));
  }, [enabled]);
}

/** Whether this tab's stream is connected now (false on the server and before it opens). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (notify) => {
      statusListeners.add(notify);
      return () => void statusListeners.delete(notify);
    },
    () => connected,
    () => false,
  );
}

/**
 * Reloads the page's data (its loaders) when a live event matches, once at a time: an event that
 * arrives while a reload or a navigation runs asks for one more after it. A `ready` that says
 * the replay window was passed (`reset`) always reloads, and so does the first `ready` this page
 * sees: its data was read before the stream opened, and what happened in between is not replayed.
 */
export function useLiveRevalidate(matches: (message: LiveMessage) => boolean, enabled = true) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const dirty = useRef(false);
  const readySeen = useRef(false);
  const [tick, bump] = useReducer((n: number) => n + 1, 0);
  useLive((message) => {
    const firstReady = message.kind === "ready" && !readySeen.current;
    if (message.kind === "ready") readySeen.current = true;
    if (firstReady || (message.kind === "ready" && message.data.reset) || matches(message)) {
      dirty.current = true;
      bump();
    }
  }, enabled);
  useEffect(() => {
    if (!dirty.current || revalidator.state !== "idle" || navigation.state !== "idle") return;
    dirty.current = false;
    revalidator.revalidate();
  }, [tick, revalidator, navigation.state]);
}

import { useEffect, useState } from "react";
import { PRODUCT_NAME } from "~/lib/product";
import { BrandIcon } from "./BrandIcon";
import { useRootData } from "~/lib/use-root-data";
import { notify, useModalDialog } from "./Toaster";

// PRODUCT §7, §5 and §8 texts.
export const SHARE_TEXT = `Check out my ${PRODUCT_NAME} performance card. Think I'm bluffing? Let's settle it in the markets!`;
export const INSTAGRAM_MESSAGE =
  "To share on Instagram, please download your performance card first, then upload it to your feed or story.";
export const NO_GRADE_MESSAGE =
  "You don’t have a grade yet. Connect your investment account to get your grade, then share it!";
export const DOWNLOADING_MESSAGE = "Please wait downloading...";
export const DOWNLOADED_MESSAGE = "Card downloaded! Now head over to Instagram and show it off.";

/** The public page a shared link points at, with the network as its source (PRODUCT §7). */
export function sharePagePath(userId: number, from: string) {
  return `/share/open_graph/${userId}?from=${encodeURIComponent(from)}`;
}

/** X/Twitter, Facebook and Reddit share intents carrying the share page URL and PRODUCT §7's text. */
export function shareIntents(base: string, userId: number) {
  const enc = encodeURIComponent;
  const page = (from: string) => `${base.replace(/\/$/, "")}${sharePagePath(userId, from)}`;
  return [
    {
      network: "twitter" as const,
      label: "X (Twitter)",
      href: `https://twitter.com/intent/tweet?text=${enc(SHARE_TEXT)}&url=${enc(page("twitter"))}`,
    },
    {
      network: "facebook" as const,
      label: "Facebook",
      href: `https://www.facebook.com/sharer/sharer.php?u=${enc(page("facebook"))}&quote=${enc(SHARE_TEXT)}`,
    },
    {
      network: "reddit" as const,
      label: "Reddit",
      href: `https://www.reddit.com/submit?url=${enc(page("reddit"))}&title=${enc(SHARE_TEXT)}`,
    },
  ];
}

export function proxyDownloadPath(shareUrl: string) {
  return `/api/share/proxy?file_url=${encodeURIComponent(shareUrl)}`;
}

function fileNameFrom(disposition: string | null): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "")?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1] ?? "grader-card.png";
}

/** The card's own path: previews load from this origin whatever PUBLIC_URL says (CSP img-src 'self'). */
function localPath(url: string) {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

export type ShareModalProps = {
  userId: number;
  title: string;
  /** A known share_url: no request is made. */
  shareUrl?: string;
  /** PRODUCT §5: the share menu is disabled for users without a grade. */
  canShare: boolean;
  onClose: () => void;
  /** Called once the user shared (opened a network's share page) or downloaded the card. */
  onShared?: (how: "twitter" | "facebook" | "reddit" | "download") => void;
};

/**
 * PRODUCT §2 share modal: a native <dialog> with the card preview (loading until share_url exists),
 * a Share popover of networks and a Download button; it closes after a download.
 */
export function ShareModal({ userId, title, shareUrl: given, canShare, onClose, onShared }: ShareModalProps) {
  const ref = useModalDialog();
  const [shareUrl, setShareUrl] = useState<string | null>(given ?? null);
  const [error, setError] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const root = useRootData() as { ENV?: { PUBLIC_URL?: string } } | undefined;
  const base = root?.ENV?.PUBLIC_URL || (typeof window !== "undefined" ? window.location.origin : "");

  useEffect(() => {
    if (given) return;
    let cancelled = false;
    fetch(`/api/share/image/${userId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ format: "link" }),
      credentials: "same-origin",
    })
      .then(async (res) => {
        const body = (await res.json()) as { data?: { share_url: string }; error?: { message: string } };
        if (cancelled) return;
        if (body.data?.share_url) setShareUrl(body.data.share_url);
        else setError(body.error?.message ?? "The card could not be prepared.");
      })
      .catch(() => !cancelled && setError("The card could not be prepared. Please try again."));
    return () => {
      cancelled = true;
    };
  }, [userId, given]);

  const ready = Boolean(shareUrl);

  async function download() {
    if (!shareUrl) return;
    setDownloading(true);
    const toastId = notify.loading(DOWNLOADING_MESSAGE);
    try {
      const res = await fetch(proxyDownloadPath(shareUrl), { credentials: "same-origin" });
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      const href = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = href;
      a.download = fileNameFrom(res.headers.get("content-disposition"));
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      notify.dismiss(toastId);
      notify.success(DOWNLOADED_MESSAGE);
      onShared?.("download");
      onClose();
    } catch {
      notify.dismiss(toastId);
      notify.error("The download failed. Please try again.");
    } finally {
      setDownloading(false);
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog share-modal"
      aria-labelledby="share-modal-title"
      style={{
        minHeight: "32.75rem",
        width: "min(92vw, 640px)",
        maxWidth: "min(92vw, 640px)",
        display: "flex",
        flexDirection: "column",
        gap: "1rem",
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center" }}>
        <h2 id="share-modal-title" style={{ margin: 0 }}>
          {title}
        </h2>
        <button type="button" className="btn btn-ghost" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div
        className="share-preview"
        aria-busy={!ready || !loaded}
        style={{
          position: "relative",
          aspectRatio: "1200 / 630",
          width: "100%",
          borderRadius: 12,
          background: "var(--surface-2, #1a2133)",
          overflow: "hidden",
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
        }}
      >
        {error ? (
          <p role="alert" style={{ padding: "1rem", textAlign: "center" }}>
            {error}
          </p>
        ) : null}
        {!error && (!ready || !loaded) ? (
          <p className="muted" role="status" style={{ position: "absolute" }}>
            Preparing your card…
          </p>
        ) : null}
        {shareUrl ? (
          <img
            src={localPath(shareUrl)}
            alt="Your performance card"
            width={1200}
            height={630}
            onLoad={() => setLoaded(true)}
            data-testid="share-preview"
            style={{ width: "100%", height: "auto", opacity: loaded ? 1 : 0, transition: "opacity 150ms" }}
          />
        ) : null}
      </div>
      <div className="dialog-actions" style={{ position: "relative", marginTop: "auto" }}>
        <div style={{ position: "relative" }}>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={!ready || !canShare}
            aria-haspopup="true"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((v) => !v)}
          >
            Share
          </button>
          {menuOpen && ready && canShare ? (
            <div
              role="menu"
              aria-label="Share to"
              className="menu-panel share-menu"
              style={{ top: "auto", bottom: "calc(100% + 0.5rem)", left: 0, right: "auto", zIndex: 2 }}
            >
              {shareIntents(base, userId).map((n) => (
                <a
                  key={n.network}
                  role="menuitem"
                  href={n.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={n.label}
                  title={n.label}
                  onClick={() => {
                    setMenuOpen(false);
                    onShared?.(n.network);
                  }}
                >
                  <BrandIcon network={n.network} />
                </a>
              ))}
              <button
                type="button"
                role="menuitem"
                className="menu-button"
                aria-label="Instagram"
                title="Instagram"
                onClick={() => {
                  setMenuOpen(false);
                  notify.info(INSTAGRAM_MESSAGE);
                }}
              >
                <BrandIcon network="instagram" />
              </button>
            </div>
          ) : null}
        </div>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!ready || downloading}
          onClick={() => void download()}
        >
          Download
        </button>
      </div>
    </dialog>
  );
}

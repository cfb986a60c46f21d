import { useEffect, useState } from "react";

type State =
  | "no-script" // the server's render, and the page without JavaScript
  | "unsupported"
  | "denied"
  | "off"
  | "on"
  | "busy";

async function registration(): Promise<ServiceWorkerRegistration> {
  return (await navigator.serviceWorker.getRegistration("/")) ?? navigator.serviceWorker.register("/sw.js");
}

/**
 * Push on this device: subscribes this browser through the Push API and tells the server
 * (POST /api/portal/push/subscriptions). The Push API is JavaScript only; without it the page says so.
 */
export function PushDevice({ publicKey }: { publicKey: string }) {
  const [state, setState] = useState<State>("no-script");
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      setState("unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      setState("denied");
      return;
    }
    void registration()
      .then((reg) => reg.pushManager.getSubscription())
      .then((sub) => setState(sub ? "on" : "off"))
      .catch(() => setState("unsupported"));
  }, []);

  async function turnOn() {
    setState("busy");
    setMessage(null);
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        setState("denied");
        return;
      }
      const reg = await registration();
      await navigator.serviceWorker.ready;
      // The Push API takes the key as its base64url text too.
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
      const res = await fetch("/api/portal/push/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(sub.toJSON()),
      });
      if (!res.ok) throw new Error(((await res.json()) as { error?: { message?: string } }).error?.message);
      setState("on");
      setMessage("Push is on for this device.");
    } catch (e) {
      setState("off");
      setMessage(`Push could not be turned on here${e instanceof Error && e.message ? `: ${e.message}` : "."}`);
    }
  }

  async function turnOff() {
    setState("busy");
    setMessage(null);
    try {
      const sub = await (await registration()).pushManager.getSubscription();
      if (sub) {
        await fetch("/api/portal/push/subscriptions", {
          method: "DELETE",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ endpoint: sub.endpoint }),
        });
        await sub.unsubscribe();
      }
      setState("off");
      setMessage("Push is off for this device.");
    } catch {
      setState("on");
      setMessage("Push could not be turned off here. Try again.");
    }
  }

  return (
    <div className="stack" data-push-state={state}>
      {state === "no-script" ? (
        <p className="muted small">Push needs JavaScript in this browser: turn it on to get pushes on this device.</p>
      ) : state === "unsupported" ? (
        <p className="muted small">
          This browser cannot receive push notifications. On an iPhone, add Grader to the Home Screen first.
        </p>
      ) : state === "denied" ? (
        <p className="muted small">
          Notifications are blocked for Grader in this browser: allow them in its site settings.
        </p>
      ) : state === "on" ? (
        <button type="button" className="btn" onClick={() => void turnOff()}>
          Turn off push on this device
        </button>
      ) : (
        <button type="button" className="btn" disabled={state === "busy"} onClick={() => void turnOn()}>
          Turn on push on this device
        </button>
      )}
      {message ? (
        <p className="small" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}

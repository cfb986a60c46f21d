import { z } from "zod";
import { APPLE_API_CALLBACK_PATH, APPLE_CALLBACK_PATH } from "./apple.server";
import { DEMO_APPLE_CLIENT_ID, DEMO_GOOGLE_CLIENT_ID, isAppleDemo, isGoogleDemo } from "./config.server";
import { GOOGLE_CALLBACK_PATH } from "./google.server";

/**
 * The browser-facing half of demo mode. Offline, the browser cannot reach Google's or Apple's
 * consent screens, so /oauth/demo/google and /oauth/demo/apple stand in for them. They ask the msw
 * simulators (test/mocks, running in this process) for the code / id_token the provider would
 * issue; everything after that is the real sign-in code. These pages 404 when credentials are set.
 */
const GOOGLE_DEMO_CONSENT_URL = "https://accounts.google.com/demo/consent";
const APPLE_DEMO_CONSENT_URL = "https://appleid.apple.com/demo/consent";

export const DEMO_GOOGLE_IDENTITY = { name: "Demo Google User", email: "demo.google@example.com" };
export const DEMO_APPLE_IDENTITY = { name: "Demo Apple User", email: "demo.apple@example.com" };

export function requireDemo(provider: "google" | "apple") {
  if (!(provider === "google" ? isGoogleDemo() : isAppleDemo())) throw new Response("Not Found", { status: 404 });
}

export const DemoIdentitySchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid email address.").max(254),
  name: z.string().trim().max(100).default(""),
  verified: z.boolean(),
});
export type DemoIdentity = z.infer<typeof DemoIdentitySchema>;

/** Only our own callback on the request's origin: the demo pages never redirect anywhere else. */
export function checkDemoRedirectUri(
  provider: "google" | "apple",
  redirectUri: string | null,
  request: Request,
): string | null {
  if (!redirectUri) return null;
  const origin = new URL(request.url).origin;
  const allowed = provider === "google" ? [GOOGLE_CALLBACK_PATH] : [APPLE_CALLBACK_PATH, APPLE_API_CALLBACK_PATH];
  return allowed.some((path) => redirectUri === origin + path) ? redirectUri : null;
}

export function checkDemoClientId(provider: "google" | "apple", clientId: string | null): boolean {
  return clientId === (provider === "google" ? DEMO_GOOGLE_CLIENT_ID : DEMO_APPLE_CLIENT_ID);
}

async function askSimulator<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`demo simulator answered ${response.status}`);
  return (await response.json()) as T;
}

export async function demoGoogleCode(identity: DemoIdentity): Promise<string> {
  const { code } = await askSimulator<{ code: string }>(GOOGLE_DEMO_CONSENT_URL, identity);
  return code;
}

export async function demoAppleConsent(
  identity: DemoIdentity,
  nonce: string | null,
): Promise<{ code: string; id_token: string }> {
  return askSimulator(APPLE_DEMO_CONSENT_URL, { ...identity, nonce, client_id: DEMO_APPLE_CLIENT_ID });
}

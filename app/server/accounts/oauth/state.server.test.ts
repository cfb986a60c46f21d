import { UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { createStateToken, STATE_TTL_SECONDS, verifyStateToken } from "./state.server";

process.env.OAUTH_STATE_SECRET = "unit-test-oauth-state-secret-of-32-characters";

describe("OAuth state tokens", () => {
  it("round-trips its provider, nonce and next", async () => {
    const { token, state } = await createStateToken("apple", "/profile");
    expect(await verifyStateToken(token, "apple")).toEqual(state);
    expect(state.nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("refuses another provider's, an expired, a tampered and an unsigned state", async () => {
    const now = Date.now();
    const { token } = await createStateToken("apple", null, now);
    expect(await verifyStateToken(token, "google", now)).toBeNull();
    expect(await verifyStateToken(token, "apple", now + (STATE_TTL_SECONDS + 1) * 1000)).toBeNull();
    expect(await verifyStateToken(token, "apple", now + (STATE_TTL_SECONDS - 1) * 1000)).not.toBeNull();
    const [header, payload, mac] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const swapped = Buffer.from(JSON.stringify({ ...claims, r: "/profile" })).toString("base64url");
    expect(await verifyStateToken(`${header}.${swapped}.${mac}`, "apple", now)).toBeNull();
    const unsigned = new UnsecuredJWT(claims).encode();
    expect(await verifyStateToken(unsigned, "apple", now)).toBeNull();
    expect(await verifyStateToken("not-a-state", "apple", now)).toBeNull();
    expect(await verifyStateToken(undefined, "apple", now)).toBeNull();
  });
});

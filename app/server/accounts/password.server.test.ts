import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import { checkPassword, hashPassword, verifyPassword } from "./password.server";

const composed = "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e"; // NFC
const decomposed = composed.normalize("NFD");

describe("passwords in Unicode NFC", () => {
  it("accept either form of the same characters", async () => {
    expect(composed).not.toBe(decomposed);
    const stored = await hashPassword(decomposed);
    expect(await checkPassword(stored, composed)).toEqual({ ok: true, rehash: false });
    expect(await checkPassword(stored, decomposed)).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword(stored, "cafe creme brulee")).toBe(false);
  });

  it("open an account hashed before normalisation and ask for a rehash", async () => {
    // As the old code stored it: the bytes as typed (NFD here), without normalising.
    const legacy = await hash(decomposed, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await checkPassword(legacy, decomposed)).toEqual({ ok: true, rehash: true });
    expect(await checkPassword(legacy, composed)).toEqual({ ok: true, rehash: true });
    expect(await checkPassword(legacy, "wrong")).toEqual({ ok: false, rehash: false });
  });
});

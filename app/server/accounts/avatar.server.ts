import crypto from "node:crypto";
import { sql } from "kysely";
import { sniffImage } from "~/lib/image-sniff";
import type { Refusal } from "~/lib/refusal";
import { getDb } from "../platform/db.server";

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const MAX_SIDE = 4096;

export type AvatarResult = { ok: true; url: string } | Refusal;

/** Validates an uploaded avatar by its bytes and stores it; users.avatar_url gets a versioned URL. */
export async function saveAvatar(userId: number, bytes: Uint8Array): Promise<AvatarResult> {
  if (bytes.length === 0) return { ok: false, status: 400, message: "Choose an image to upload." };
  if (bytes.length > AVATAR_MAX_BYTES) return { ok: false, status: 400, message: "The image is larger than 2 MB." };
  const info = sniffImage(bytes);
  if (!info) return { ok: false, status: 400, message: "Use a PNG, JPEG or WebP image." };
  if (info.width < 1 || info.height < 1 || info.width > MAX_SIDE || info.height > MAX_SIDE) {
    return { ok: false, status: 400, message: `The image must be at most ${MAX_SIDE}×${MAX_SIDE} pixels.` };
  }
  const hash = crypto.createHash("sha256").update(bytes).digest("base64url").slice(0, 16);
  const url = `/avatars/${userId}?v=${hash}`;
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("avatars")
      .values({ user_id: userId, mime: info.mime, bytes: Buffer.from(bytes), hash })
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet({ mime: info.mime, bytes: Buffer.from(bytes), hash, updated_at: sql`now()` }),
      )
      .execute();
    await trx
      .updateTable("users")
      .set({ avatar_url: url, updated_at: sql`now()` })
      .where("id", "=", userId)
      .execute();
  });
  return { ok: true, url };
}

export async function removeAvatar(userId: number) {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("avatars").where("user_id", "=", userId).execute();
    await trx.updateTable("users").set({ avatar_url: null }).where("id", "=", userId).execute();
  });
}

export async function loadAvatar(userId: number) {
  const db = await getDb();
  return db.selectFrom("avatars").select(["mime", "bytes", "hash"]).where("user_id", "=", userId).executeTakeFirst();
}

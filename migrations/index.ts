import type { Migration } from "kysely";
import * as m0001 from "./0001_init";

// A static list (not a folder scan) so the migrations also work when bundled.
export const migrations: Record<string, Migration> = {
  "0001_init": m0001,
};

import type { Migration } from "kysely";
import * as m0001 from "./0001_init";
import * as m0002 from "./0002_identities";
import * as m0003 from "./0003_linking";
import * as m0004 from "./0004_evaluations";

// A static list (not a folder scan) so the migrations also work when bundled.
export const migrations: Record<string, Migration> = {
  "0001_init": m0001,
  "0002_identities": m0002,
  "0003_linking": m0003,
  "0004_evaluations": m0004,
};

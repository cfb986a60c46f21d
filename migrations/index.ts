import type { Migration } from "kysely";
import * as m0001 from "./0001_init";
import * as m0002 from "./0002_identities";
import * as m0003 from "./0003_linking";
import * as m0004 from "./0004_evaluations";
import * as m0005 from "./0005_cards";
import * as m0006 from "./0006_community";
import * as m0007 from "./0007_billing_points";
import * as m0008 from "./0008_price_history";
import * as m0009 from "./0009_demo_flag";
import * as m0010 from "./0010_imports";
import * as m0011 from "./0011_evaluation_ledgers";
import * as m0012 from "./0012_grade_log";
import * as m0013 from "./0013_time_zone";
import * as m0014 from "./0014_ledger_events";
import * as m0015 from "./0015_leaderboard";
import * as m0016 from "./0016_notifications";
import * as m0017 from "./0017_admin_and_own_data";
import * as m0019 from "./0019_post_cards";
import * as m0020 from "./0020_import_poll";
import * as m0025 from "./0025_import_failed_notification";
import * as m0026 from "./0026_import_again";
import * as m0027 from "./0027_search_words";
import * as m0028 from "./0028_trade_snapshots";
import * as m0029 from "./0029_ledger_storage";
import * as m0030 from "./0030_ledger_texts";
import * as m0031 from "./0031_leaderboard_counts";
import * as m0032 from "./0032_plaid_webhooks_seen";
import * as m0033 from "./0033_automatic_grade_days";
import * as m0034 from "./0034_engine_regrade";
import * as m0036 from "./0036_evaluation_runs";
import * as m0037 from "./0037_mail_claims";
import * as m0038 from "./0038_currencies";
import * as m0039 from "./0039_exchange_kinds";
import * as m0040 from "./0040_live_events";
import * as m0041 from "./0041_push";
import * as m0042 from "./0042_ibkr";
import * as m0043 from "./0043_statements";
import * as m0044 from "./0044_more_exchanges";
import * as m0045 from "./0045_contract_index";
import * as m0046 from "./0046_okx_bybit";
import * as m0047 from "./0047_price_confidence";
import * as m0048 from "./0048_seasons";
import * as m0049 from "./0049_trade_alerts";
import * as m0050 from "./0050_clubs";
import * as m0051 from "./0051_club_notifications_and_pruning";
import * as m0052 from "./0052_fill_confidence";

// A static list (not a folder scan) so the migrations also work when bundled.
export const migrations: Record<string, Migration> = {
  "0001_init": m0001,
  "0002_identities": m0002,
  "0003_linking": m0003,
  "0004_evaluations": m0004,
  "0005_cards": m0005,
  "0006_community": m0006,
  "0007_billing_points": m0007,
  "0008_price_history": m0008,
  "0009_demo_flag": m0009,
  "0010_imports": m0010,
  "0011_evaluation_ledgers": m0011,
  "0012_grade_log": m0012,
  "0013_time_zone": m0013,
  "0014_ledger_events": m0014,
  "0015_leaderboard": m0015,
  "0016_notifications": m0016,
  "0017_admin_and_own_data": m0017,
  "0019_post_cards": m0019,
  "0020_import_poll": m0020,
  "0025_import_failed_notification": m0025,
  "0026_import_again": m0026,
  "0027_search_words": m0027,
  "0028_trade_snapshots": m0028,
  "0029_ledger_storage": m0029,
  "0030_ledger_texts": m0030,
  "0031_leaderboard_counts": m0031,
  "0032_plaid_webhooks_seen": m0032,
  "0033_automatic_grade_days": m0033,
  "0034_engine_regrade": m0034,
  "0036_evaluation_runs": m0036,
  "0037_mail_claims": m0037,
  "0038_currencies": m0038,
  "0039_exchange_kinds": m0039,
  "0040_live_events": m0040,
  "0041_push": m0041,
  "0042_ibkr": m0042,
  "0043_statements": m0043,
  "0044_more_exchanges": m0044,
  "0045_contract_index": m0045,
  "0046_okx_bybit": m0046,
  "0047_price_confidence": m0047,
  "0048_seasons": m0048,
  "0049_trade_alerts": m0049,
  "0050_clubs": m0050,
  "0051_club_notifications_and_pruning": m0051,
  "0052_fill_confidence": m0052,
};

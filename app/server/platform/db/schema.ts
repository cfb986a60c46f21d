import type { ColumnType, Generated } from "kysely";
import type { DataQuality } from "../../../lib/data-quality";
import type { AssetClass, GradeScope, LinkedAccountKind } from "../../../lib/vocabulary";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
// A timestamp column with a database default (now()): optional on insert.
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar_url: string | null;
  email_verified_at: NullableTimestamp;
  onboarded_at: NullableTimestamp;
  markets: Generated<string[]>;
  experience: string | null;
  show_amounts: Generated<boolean>;
  tries_used: Generated<number>;
  extra_tries: Generated<number>;
  unlimited_until: NullableTimestamp;
  points_balance: ColumnType<string, string | number | undefined, string | number>;
  referred_by: number | null;
  evaluating_since: NullableTimestamp;
  current_evaluation_id: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  share_trades: Generated<boolean>;
  /** IANA time zone for the Stats tab's weekday and hour breakdowns (migration 0013). */
  time_zone: Generated<string>;
  /** May use /admin (migration 0017; `npm run admin -- grant <email>`). */
  is_admin: Generated<boolean>;
  /** The currency the trader's grade is made in (migration 0038; app/lib/currencies.ts BASE_CURRENCIES). */
  base_currency: Generated<string>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: DefaultTimestamp;
  last_seen_at: DefaultTimestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  count: Generated<number>;
}

export interface AuthTokensTable {
  token_hash: string;
  user_id: number;
  purpose: "reset" | "verify";
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

/** The live channel's per-user event counter (DECISIONS 187). */
export interface LiveSeqsTable {
  user_id: number;
  seq: ColumnType<string, string | number, string | number>;
}

/** One event of the live channel for one user, kept for the replay window (DECISIONS 187). */
export interface LiveEventsTable {
  user_id: number;
  seq: ColumnType<string, string | number, string | number>;
  kind: string;
  data: ColumnType<unknown, string, string>;
  created_at: DefaultTimestamp;
}

export interface OutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  text: string;
  created_at: DefaultTimestamp;
  sent_at: NullableTimestamp;
  attempts: Generated<number>;
  last_error: string | null;
  // A sender's lease on the row (DECISIONS 171), and the earliest next try after a failure.
  claimed_until: NullableTimestamp;
  retry_at: NullableTimestamp;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  user_id: number | null;
  created_at: DefaultTimestamp;
}

export interface PageViewsTable {
  id: Generated<string>;
  path: string;
  source: string | null;
  user_id: number | null;
  created_at: DefaultTimestamp;
}

export interface UserIdentitiesTable {
  provider: "google" | "apple";
  subject: string;
  user_id: number;
  email: string | null;
  created_at: DefaultTimestamp;
}

export type { LinkedAccountKind };
export type LinkedAccountStatus = "active" | "importing" | "relogin_required" | "error";

export interface LinkedAccountsTable {
  id: Generated<number>;
  user_id: number;
  kind: LinkedAccountKind;
  fingerprint: string;
  label: string;
  institution_name: string | null;
  status: ColumnType<LinkedAccountStatus, LinkedAccountStatus | undefined, LinkedAccountStatus>;
  access_token_enc: string | null;
  item_id: string | null;
  last_imported_at: NullableTimestamp;
  last_error: string | null;
  created_at: DefaultTimestamp;
}

export interface TradesTable {
  id: Generated<string>;
  linked_account_id: number;
  external_id: string;
  time: Timestamp;
  symbol: string;
  asset_class: AssetClass;
  side: "buy" | "sell";
  quantity: number;
  price: number;
  fee: ColumnType<number, number | undefined, number>;
  /** ISO 4217, or a provider's unofficial code, as imported (migration 0038); every older row is USD. */
  currency: Generated<string>;
  /**
   * Contract size: the trade's cash is quantity × price × multiplier (migration 0042). A numeric
   * column, which pg reads as a string: Number() it.
   */
  multiplier: ColumnType<string | number, number | undefined, number>;
  /** A future's or option's last day, ISO date (migration 0042). */
  expiry: ColumnType<string | null, string | null | undefined, string | null>;
  /** How far the price source vouches for a wallet fill's price, 0–1 (migration 0052, DECISIONS 219); null: a market fill. */
  confidence: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A linked account's trades as columns, through trades.id through_id (migration 0028; ledger.server.ts). */
export interface TradeSnapshotsTable {
  linked_account_id: number;
  through_id: string;
  n: number;
  /** Four 32-bit sums of its digest lines' SHA-256, as 32 hex digits. */
  lanes: string;
  /** Its trades (ledger.server.ts, snapshotBody). */
  body: Buffer;
  /** Its trades' canonical ledger text (ledger_texts); null until a grade writes it. */
  ledger_text_id: string | null;
}

/** The canonical ledger text of a snapshot's trades (migration 0030), shared by the evaluations that graded it. */
export interface LedgerTextsTable {
  id: Generated<string>;
  user_id: number;
  /** The ENGINE_VERSION that wrote it. */
  engine_version: string;
  /** gzip of the trades' objects joined by commas, with their own numbers. */
  exact: Buffer;
  /** The same with the digest's numbers; null when rounding changed none. */
  rounded: Buffer | null;
}

export interface CashFlowsTable {
  id: Generated<string>;
  linked_account_id: number;
  external_id: string;
  time: Timestamp;
  amount: number;
  /** ISO 4217, or a provider's unofficial code, as imported (migration 0038); every older row is USD. */
  currency: Generated<string>;
}

export interface PriceMarksTable {
  linked_account_id: number;
  symbol: string;
  time: Timestamp;
  price: number;
  /** ISO 4217, or a provider's unofficial code, as imported (migration 0038); every older row is USD. */
  currency: Generated<string>;
}

export interface ProviderPayloadsTable {
  id: Generated<string>;
  linked_account_id: number;
  kind: string;
  payload: ColumnType<unknown, string, string>;
  fetched_at: DefaultTimestamp;
}

export interface WalletNoncesTable {
  nonce: string;
  user_id: number;
  chain: "evm" | "solana";
  address: string;
  message: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface AvatarsTable {
  user_id: number;
  mime: "image/png" | "image/jpeg" | "image/webp";
  bytes: Buffer;
  hash: string;
  updated_at: DefaultTimestamp;
}

export interface EvaluationsTable {
  id: Generated<number>;
  user_id: number;
  engine_version: string;
  /** The engine's ledgerDigest of the ledger graded (evaluation_ledgers), from engine 2.0.0 on. */
  ledger_digest: string;
  /** Digest of the imported rows the ledger was built from: "nothing new" when it repeats. */
  history_digest: string | null;
  /** Items left out of this grade, by reason ({ skipped: [{reason, count}] }). */
  data_quality: ColumnType<DataQuality | null, string | undefined, string>;
  tier: string | null;
  score: number | null;
  percentile: number | null;
  verification_code: string;
  result: ColumnType<unknown, string, string>;
  /** Graded from simulated provider histories (demo mode). */
  demo: Generated<boolean>;
  /**
   * Graded from uploaded statements only (DECISIONS 198): shown as self-reported everywhere, never
   * on the market leaderboard or in the grade log. A verified grade never reads a statement.
   */
  self_reported: Generated<boolean>;
  /** The grade this one re-made under a newer engine (DECISIONS 168): no try, no automatic grade. */
  remade_from: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: DefaultTimestamp;
}

export type LedgerEventKind =
  "income" | "fee" | "shares" | "spinoff" | "merger" | "cancel" | "receive" | "send" | "fx" | "wrap";
export interface LedgerEventsTable {
  id: Generated<number>;
  linked_account_id: number;
  external_id: string;
  time: ColumnType<Date, Date | string, Date | string>;
  kind: LedgerEventKind;
  symbol: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  /** ISO 4217, or a provider's unofficial code, as imported (migration 0038); every older row is USD. */
  currency: Generated<string>;
}

export interface EvaluationLedgersTable {
  evaluation_id: number;
  /** gzip of the ledger's JSON; with a ledger text, of what comes before it. */
  ledger: Buffer;
  /** The text of trades the ledger shares (ledger_texts): the ledger is `ledger`, its `exact`, then `ledger_tail`. */
  ledger_text_id: ColumnType<string | null, string | null | undefined, string | null>;
  ledger_tail: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

export interface EvaluationDaysTable {
  user_id: number;
  day: ColumnType<string, string, string>;
  /** Evaluations the trader asked for (DAILY_EVALUATIONS). */
  count: Generated<number>;
  /** Automatic grades after imports (AUTO_GRADES_PER_DAY; migration 0033). */
  automatic: Generated<number>;
}

// Community (migration 0006).
export interface FollowsTable {
  follower_id: number;
  followee_id: number;
  created_at: DefaultTimestamp;
}

export interface PostsTable {
  id: Generated<string>;
  author_id: number;
  parent_id: string | null;
  root_id: string | null;
  body: string;
  evaluation_id: number | null;
  /** 0019: the stored card (cards.hash) attached with the grade. */
  card_hash: ColumnType<string | null, string | null | undefined, string | null>;
  like_count: Generated<number>;
  reply_count: Generated<number>;
  report_count: Generated<number>;
  hidden_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: DefaultTimestamp;
  /** 0050: the club whose feed holds the post (null: the community's). */
  club_id: ColumnType<number | null, number | null | undefined, number | null>;
}

// Trader clubs (migration 0050).
export type ClubJoinPolicy = "open" | "request";
export type ClubRole = "owner" | "moderator" | "member";
export type ClubMemberStatus = "active" | "pending" | "removed";
export interface ClubsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  description: string;
  markets: ColumnType<string, string | undefined, string>;
  min_tier: string | null;
  join_policy: ClubJoinPolicy;
  owner_id: number;
  member_count: Generated<number>;
  created_at: DefaultTimestamp;
}
export interface ClubMembersTable {
  club_id: number;
  user_id: number;
  role: ColumnType<ClubRole, ClubRole | undefined, ClubRole>;
  status: ClubMemberStatus;
  created_at: DefaultTimestamp;
}

export interface PostLikesTable {
  user_id: number;
  post_id: string;
  created_at: DefaultTimestamp;
}

export interface BlocksTable {
  blocker_id: number;
  blocked_id: number;
  created_at: DefaultTimestamp;
}

export type ConversationStatus = "request" | "accepted" | "declined";

export interface ConversationsTable {
  id: Generated<number>;
  user_a: number;
  user_b: number;
  started_by: number;
  status: ConversationStatus;
  a_last_read_id: ColumnType<string, string | number | undefined, string | number>;
  b_last_read_id: ColumnType<string, string | number | undefined, string | number>;
  last_message_at: DefaultTimestamp;
  created_at: DefaultTimestamp;
}

export interface MessagesTable {
  id: Generated<string>;
  conversation_id: number;
  sender_id: number;
  body: string;
  created_at: DefaultTimestamp;
}

export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number;
  post_id: string | null;
  user_id: number | null;
  reason: string;
  created_at: DefaultTimestamp;
  reviewed_at: NullableTimestamp;
  resolution: "hidden" | "restored" | "dismissed" | null;
}

/** Free tries used by deleted accounts, by HMAC of the e-mail (migration 0017). */
export interface RetiredTriesTable {
  email_hmac: string;
  tries_used: number;
  retired_at: DefaultTimestamp;
}

// The market leaderboard, kept by a trigger on users (migration 0015).
export interface MarketLeaderboardTable {
  user_id: number;
  evaluation_id: number;
  tier: string | null;
  score: number;
  twr: number | null;
  max_drawdown: number | null;
  stars: number | null;
  followers_count: number;
}

// 0031_leaderboard_counts: +1 / -1 per change of market_leaderboard, per tier (summed, never updated)
export interface MarketLeaderboardCountsTable {
  tier: string | null;
  n: number;
}

// 0027_search_words: trader search's dictionary of name words, kept by a trigger on users
export interface SearchWordsTable {
  word: string;
}
export interface UserSearchWordsTable {
  word: string;
  user_id: number;
}

/** An evaluation asked for and run as a job (migration 0036): its outcome once done. */
export interface EvaluationRunsTable {
  id: Generated<number>;
  user_id: number;
  kind: GradeScope;
  state: ColumnType<
    "queued" | "running" | "done",
    "queued" | "running" | "done" | undefined,
    "queued" | "running" | "done"
  >;
  outcome: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  finished_at: NullableTimestamp;
}

export interface Database {
  search_words: SearchWordsTable;
  user_search_words: UserSearchWordsTable;
  retired_tries: RetiredTriesTable;
  market_leaderboard: MarketLeaderboardTable;
  market_leaderboard_counts: MarketLeaderboardCountsTable;
  grade_log: GradeLogTable;
  grade_log_head: GradeLogHeadTable;
  grade_signing_keys: GradeSigningKeysTable;
  unlinked_accounts: UnlinkedAccountsTable;
  price_history: PriceHistoryTable;
  price_ranges: PriceRangesTable;
  cards: CardsTable;
  checkout_sessions: CheckoutSessionsTable;
  stripe_events: StripeEventsTable;
  plaid_webhooks_seen: PlaidWebhooksSeenTable;
  pass_grants: PassGrantsTable;
  points_ledger: PointsLedgerTable;
  seasons: SeasonsTable;
  season_winners: SeasonWinnersTable;
  trade_alert_settings: TradeAlertSettingsTable;
  trade_alert_subscriptions: TradeAlertSubscriptionsTable;
  trade_alerts: TradeAlertsTable;
  trade_alert_deliveries: TradeAlertDeliveriesTable;
  stakes: StakesTable;
  wallet_registrations: WalletRegistrationsTable;
  star_applications: StarApplicationsTable;
  evaluations: EvaluationsTable;
  evaluation_runs: EvaluationRunsTable;
  evaluation_days: EvaluationDaysTable;
  evaluation_ledgers: EvaluationLedgersTable;
  ledger_texts: LedgerTextsTable;
  ledger_events: LedgerEventsTable;
  avatars: AvatarsTable;
  linked_accounts: LinkedAccountsTable;
  imports: ImportsTable;
  trades: TradesTable;
  trade_snapshots: TradeSnapshotsTable;
  cash_flows: CashFlowsTable;
  price_marks: PriceMarksTable;
  provider_payloads: ProviderPayloadsTable;
  wallet_nonces: WalletNoncesTable;
  page_views: PageViewsTable;
  contact_messages: ContactMessagesTable;
  auth_tokens: AuthTokensTable;
  outbox: OutboxTable;
  live_seqs: LiveSeqsTable;
  live_events: LiveEventsTable;
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  user_identities: UserIdentitiesTable;
  follows: FollowsTable;
  posts: PostsTable;
  clubs: ClubsTable;
  club_members: ClubMembersTable;
  post_likes: PostLikesTable;
  blocks: BlocksTable;
  conversations: ConversationsTable;
  messages: MessagesTable;
  reports: ReportsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  vapid_keys: VapidKeysTable;
}

// 0007_billing_points
export type CheckoutStatus = "open" | "paid" | "processing" | "failed" | "expired";
export interface CheckoutSessionsTable {
  id: string;
  user_id: number;
  pass_id: string;
  price_id: string;
  amount_cents: number;
  currency: string;
  ui_mode: string;
  status: ColumnType<CheckoutStatus, CheckoutStatus | undefined, CheckoutStatus>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: DefaultTimestamp;
}

export interface PlaidWebhooksSeenTable {
  /** SHA-256 (hex) of the webhook JWT's signed part. */
  id: string;
  seen_at: DefaultTimestamp;
}

export interface PassGrantsTable {
  checkout_session_id: string;
  user_id: number;
  pass_id: string;
  evaluations: number;
  unlimited_days: number;
  granted_at: DefaultTimestamp;
}

// 0048_seasons: leaderboard seasons (community/seasons.server.ts), one row per UTC month known.
export interface SeasonsTable {
  /** "YYYY-MM". */
  month: string;
  closed_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}
// Live trade alerts (migration 0049, DECISIONS 215).
export type TradeAlertDelay = "none" | "15m" | "eod";
export interface TradeAlertSettingsTable {
  user_id: number;
  enabled: Generated<boolean>;
  delay: ColumnType<TradeAlertDelay, TradeAlertDelay | undefined, TradeAlertDelay>;
  hide_sizes: Generated<boolean>;
  /** When the trader last turned alerts on: trades before that day (UTC) are never alerted. */
  since: NullableTimestamp;
  updated_at: DefaultTimestamp;
}

export interface TradeAlertSubscriptionsTable {
  trader_id: number;
  subscriber_id: number;
  created_at: DefaultTimestamp;
}

export interface TradeAlertsTable {
  id: Generated<string>;
  trader_id: number;
  linked_account_id: number;
  external_id: string;
  trade_id: string | null;
  symbol: string;
  side: "buy" | "sell";
  traded_at: Timestamp;
  deliver_at: Timestamp;
  tier: string | null;
  share: number | null;
  fanned_out_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

export interface TradeAlertDeliveriesTable {
  alert_id: string;
  user_id: number;
  created_at: DefaultTimestamp;
}

/** A closed season's paid ranks: unique by season and trader, and by season and rank. */
export interface SeasonWinnersTable {
  month: string;
  user_id: number;
  rank: number;
  score: number;
  active_days: number;
  season_return: number;
  tier: string | null;
  points: number;
}
export interface PointsLedgerTable {
  id: Generated<string>;
  user_id: number;
  // bigint: pg returns it as a string.
  amount: ColumnType<string, string | number, never>;
  reason: string;
  idempotency_key: string;
  created_at: DefaultTimestamp;
}

export interface StakesTable {
  id: Generated<number>;
  user_id: number;
  amount: ColumnType<string, string | number, never>;
  lock_days: 30 | 90 | 180;
  multiplier: number;
  started_at: DefaultTimestamp;
  unlocks_at: Timestamp;
  unstaked_at: NullableTimestamp;
  request_key: string;
}

export interface WalletRegistrationsTable {
  user_id: number;
  linked_account_id: number;
  chain: "evm" | "solana";
  address: string;
  registered_at: DefaultTimestamp;
}

export type StarApplicationStatus = "pending" | "approved" | "rejected";
export interface StarApplicationsTable {
  user_id: number;
  bio: string;
  strategy: string;
  markets: string;
  status: ColumnType<StarApplicationStatus, StarApplicationStatus | undefined, StarApplicationStatus>;
  created_at: DefaultTimestamp;
  reviewed_at: NullableTimestamp;
}

export interface CardsTable {
  /** SHA-256 (hex) of everything drawn on the card plus the layout version. */
  hash: string;
  format: "link" | "story";
  user_id: number | null;
  png: Buffer;
  created_at: DefaultTimestamp;
}

// 0008_price_history. `date` columns are read as text (::text) so no time zone shifts a day.
export interface PriceHistoryTable {
  instrument: string;
  day: ColumnType<string, string, string>;
  price: number;
  /** 0047_price_confidence: how far the provider vouches for the price, 0–1 (DefiLlama's); null for Yahoo's closes and FX rates. */
  confidence: number | null;
}
export interface PriceRangesTable {
  id: Generated<number>;
  instrument: string;
  from_day: ColumnType<string, string, string>;
  to_day: ColumnType<string, string, string>;
  fetched_at: DefaultTimestamp;
}

// 0010_imports
import type { ImportState } from "../../../lib/imports";
export type { ImportState };
export type ImportReason = "link" | "evaluation" | "webhook" | "retry" | "poll" | "sync";
export interface ImportsTable {
  id: Generated<number>;
  user_id: number;
  linked_account_id: number;
  reason: ImportReason;
  state: ColumnType<ImportState, ImportState | undefined, ImportState>;
  fetched: Generated<number>;
  total: number | null;
  skipped: ColumnType<{ reason: string; count: number }[], string | undefined, string>;
  trades_added: Generated<number>;
  error: string | null;
  attempts: Generated<number>;
  cursor: ColumnType<Record<string, unknown>, string | undefined, string>;
  regrade: ColumnType<boolean, boolean | undefined, boolean>;
  // 0026: new data was announced while this import ran; another one follows it
  again: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  finished_at: NullableTimestamp;
}

// 0012_grade_log
export interface GradeLogTable {
  seq: ColumnType<string, number | string, never>;
  code: string;
  prev_hash: string;
  hash: string;
  record: string;
  signature: string;
  kid: string;
  created_at: DefaultTimestamp;
}
export interface GradeLogHeadTable {
  id: number;
  seq: ColumnType<string, number | string, number | string>;
  hash: string;
  pseudonym_key: string;
}
export interface GradeSigningKeysTable {
  kid: string;
  public_jwk: string;
  private_sealed: string | null;
  not_before: DefaultTimestamp;
  retired_at: NullableTimestamp;
}
export interface UnlinkedAccountsTable {
  id: Generated<number>;
  user_id: number;
  kind: LinkedAccountKind;
  twr: number | null;
  unlinked_at: DefaultTimestamp;
}

// 0016_notifications
import type { DigestFrequency, NotificationKind } from "../../../lib/notifications";
export interface NotificationsTable {
  id: ColumnType<string, never, never>;
  user_id: number;
  kind: NotificationKind;
  actor_id: number | null;
  subject: string;
  url: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  count: Generated<number>;
  created_at: DefaultTimestamp;
  read_at: NullableTimestamp;
  emailed_at: NullableTimestamp;
}
export interface NotificationSettingsTable {
  user_id: number;
  muted: ColumnType<NotificationKind[], NotificationKind[] | undefined, NotificationKind[]>;
  digest: ColumnType<DigestFrequency, DigestFrequency | undefined, DigestFrequency>;
  last_digest_at: NullableTimestamp;
  /** The kinds also sent by Web Push to the user's subscribed browsers. */
  push: ColumnType<NotificationKind[], NotificationKind[] | undefined, NotificationKind[]>;
}
export interface PushSubscriptionsTable {
  id: ColumnType<string, never, never>;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: DefaultTimestamp;
  last_sent_at: NullableTimestamp;
}
export interface VapidKeysTable {
  id: number;
  public_key: string;
  private_sealed: string;
  created_at: DefaultTimestamp;
}

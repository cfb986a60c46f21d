import type { ColumnType, Generated } from "kysely";

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
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
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

export interface OutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  text: string;
  created_at: DefaultTimestamp;
  sent_at: NullableTimestamp;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  message: string;
  user_id: number | null;
  created_at: DefaultTimestamp;
}

export interface Database {
  contact_messages: ContactMessagesTable;
  auth_tokens: AuthTokensTable;
  outbox: OutboxTable;
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
}

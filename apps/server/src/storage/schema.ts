import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types shared by both dialects. Times are epoch milliseconds (INTEGER in SQLite, BIGINT in
 * PostgreSQL, parsed to number), booleans are 0/1 integers, so one repository works on both.
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  full_name: string;
  country: string;
  timezone: string;
  language: string;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** Sessions are families: a refresh rotates within one family, logout revokes the family. */
  family: string;
  expires_at: number;
  created_at: number;
  used_at: number | null;
  revoked_at: number | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  password_resets: PasswordResetsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

import type { Kysely } from 'kysely';
import type { Database, NewUserRow, UserRow, UserUpdate } from '../../storage/schema.js';

/** The only code that touches the users, refresh_tokens and password_resets tables. */
export class AccountsRepository {
  constructor(readonly db: Kysely<Database>) {}

  findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findUserById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Inserts a user; returns undefined when the email is taken (unique constraint, race-safe). */
  async insertUser(row: NewUserRow): Promise<UserRow | undefined> {
    const inserted = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted;
  }

  async updateUser(id: number, patch: UserUpdate): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async insertRefreshToken(row: { user_id: number; token_hash: string; family: string; expires_at: number; created_at: number }) {
    await this.db.insertInto('refresh_tokens').values(row).execute();
  }

  findRefreshToken(hash: string) {
    return this.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a token used; false when it was already used (a replay), so only one rotation wins. */
  async markRefreshTokenUsed(id: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async revokeFamily(family: string, now: number): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('family', '=', family)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live session of the user; answers the sessions (families) it ended. */
  async revokeAllForUser(userId: number, now: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('family')
      .execute();
    return [...new Set(rows.map((r) => r.family))];
  }

  /** The user a live (not revoked) session belongs to, or undefined. */
  async sessionUser(family: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select('user_id')
      .where('family', '=', family)
      .where('revoked_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Which of these sessions (refresh-token families) are not revoked: one query per 500. */
  async activeFamilies(families: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < families.length; i += 500) {
      const rows = await this.db
        .selectFrom('refresh_tokens')
        .select('family')
        .distinct()
        .where('family', 'in', families.slice(i, i + 500))
        .where('revoked_at', 'is', null)
        .execute();
      for (const r of rows) out.add(r.family);
    }
    return out;
  }

  async insertPasswordReset(row: { token_hash: string; user_id: number; expires_at: number; created_at: number }) {
    await this.db.insertInto('password_resets').values(row).execute();
  }

  /** Ends every unused reset token of the user (a newer one was issued, or one was used). */
  async endPasswordResets(userId: number, now: number): Promise<void> {
    await this.db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  /** Consumes a reset token once; returns its user id when it was valid and unused. */
  async consumePasswordReset(hash: string, now: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }
}

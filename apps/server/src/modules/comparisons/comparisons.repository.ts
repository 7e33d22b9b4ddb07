import { isStorableId } from '@phasewatch/shared';
import type { Kysely } from 'kysely';
import type { ComparisonRow, Database } from '../../storage/schema.js';

/** The only code touching the comparisons table. */
export class ComparisonsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listForUser(userId: number): Promise<ComparisonRow[]> {
    return this.db.selectFrom('comparisons').selectAll().where('user_id', '=', userId).orderBy('name').orderBy('id').execute();
  }

  findForUser(userId: number, id: number): Promise<ComparisonRow | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db.selectFrom('comparisons').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  insert(row: { user_id: number; name: string; series: string; created_at: number; updated_at: number }): Promise<ComparisonRow> {
    return this.db.insertInto('comparisons').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(userId: number, id: number, patch: { name: string; series: string; updated_at: number }): Promise<ComparisonRow | undefined> {
    if (!isStorableId(id)) return Promise.resolve(undefined);
    return this.db
      .updateTable('comparisons')
      .set(patch)
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(userId: number, id: number): Promise<boolean> {
    if (!isStorableId(id)) return false;
    const res = await this.db.deleteFrom('comparisons').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}

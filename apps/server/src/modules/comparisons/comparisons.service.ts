import { type Comparison, type ComparisonSeries, isStorableId } from '@phasewatch/shared';
import { serverDate } from '../../http/dates.js';
import { keyedError, notFound } from '../../http/errors.js';
import type { ComparisonRow } from '../../storage/schema.js';
import type { DeviceReads } from '../devices/index.js';
import type { ComparisonsRepository } from './comparisons.repository.js';

const comparisonNotFound = () => notFound('Comparison not found');

function seriesOf(row: ComparisonRow): ComparisonSeries[] {
  try {
    const parsed = JSON.parse(row.series) as unknown;
    return Array.isArray(parsed) ? (parsed as ComparisonSeries[]) : [];
  } catch {
    return [];
  }
}

/**
 * Saved comparisons (spec sections 2, 3, 5): a name of 3–30 characters and at least one series (a device
 * of the user and a parameter). A series naming another user's device answers 404, as the device would.
 */
export class ComparisonsService {
  constructor(
    private readonly repo: ComparisonsRepository,
    private readonly devices: DeviceReads,
    private readonly now: () => number = Date.now,
  ) {}

  private toComparison(row: ComparisonRow): Comparison {
    return {
      id: row.id,
      name: row.name,
      series: seriesOf(row),
      createdAt: serverDate(row.created_at),
      updatedAt: serverDate(row.updated_at),
    };
  }

  private async checkDevices(userId: number, series: ComparisonSeries[]): Promise<void> {
    for (const [i, s] of series.entries()) {
      const own = isStorableId(s.deviceId) ? await this.devices.findForUser(userId, s.deviceId) : undefined;
      if (!own) throw keyedError(404, 'errors.deviceNotFound', { field: `series.${i}.deviceId` });
    }
  }

  async list(userId: number): Promise<Comparison[]> {
    return (await this.repo.listForUser(userId)).map((r) => this.toComparison(r));
  }

  async get(userId: number, id: number): Promise<Comparison> {
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw comparisonNotFound();
    return this.toComparison(row);
  }

  async create(userId: number, req: { name: string; series: ComparisonSeries[] }): Promise<Comparison> {
    await this.checkDevices(userId, req.series);
    const now = this.now();
    const row = await this.repo.insert({
      user_id: userId,
      name: req.name,
      series: JSON.stringify(req.series),
      created_at: now,
      updated_at: now,
    });
    return this.toComparison(row);
  }

  async update(userId: number, id: number, req: { name: string; series: ComparisonSeries[] }): Promise<Comparison> {
    if (!(await this.repo.findForUser(userId, id))) throw comparisonNotFound();
    await this.checkDevices(userId, req.series);
    const row = await this.repo.update(userId, id, { name: req.name, series: JSON.stringify(req.series), updated_at: this.now() });
    if (!row) throw comparisonNotFound();
    return this.toComparison(row);
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw comparisonNotFound();
  }
}

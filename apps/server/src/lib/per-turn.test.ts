import { describe, expect, it } from 'vitest';
import { PerTurn } from './per-turn.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('PerTurn', () => {
  it('hands what one turn asked over together at the next, and a later turn apart', async () => {
    const turns: number[][] = [];
    const gather = new PerTurn<number>((items) => turns.push(items));
    gather.add(1);
    gather.add(2);
    gather.add(2);
    expect(gather.queued).toBe(true);
    expect(turns).toEqual([]);
    await nextTurn();
    expect(turns).toEqual([[1, 2, 2]]);
    expect(gather.queued).toBe(false);
    gather.add(3);
    await nextTurn();
    expect(turns).toEqual([[1, 2, 2], [3]]);
  });

  it('takes what is asked while a turn is handed over into the next turn', async () => {
    const turns: number[][] = [];
    const gather: PerTurn<number> = new PerTurn<number>((items) => {
      turns.push(items);
      if (items[0] === 1) gather.add(9);
    });
    gather.add(1);
    await nextTurn();
    await nextTurn();
    expect(turns).toEqual([[1], [9]]);
  });
});

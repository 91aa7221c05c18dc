/**
 * The request slots of a pull (src/data/sync/pull.ts): at most so many
 * requests at once, and on a new phone the collections beyond the homes
 * give way: a freed slot goes to a waiting request of the homes first.
 */
import { describe, expect, test } from 'vitest';
import { RequestSlots } from '../../src/data/sync/pull.ts';

/** A request that ends when told to, noting when it started. */
function request(started: string[], name: string) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return { work: () => (started.push(name), ended), end };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('RequestSlots', () => {
  test('never runs more than its size; a freed slot goes to a waiting request of the first kind before one that gives way', async () => {
    const slots = new RequestSlots(2);
    const behind = slots.givingWay();
    const started: string[] = [];
    const a = request(started, 'a');
    const b = request(started, 'b');
    const later = request(started, 'later');
    const c = request(started, 'c');
    const runs = [slots.run(a.work), slots.run(b.work), behind.run(later.work), slots.run(c.work)];
    await tick();
    expect(started).toEqual(['a', 'b']);
    a.end();
    await tick();
    // 'later' asked before 'c', and still waits: c is of the first kind.
    expect(started).toEqual(['a', 'b', 'c']);
    b.end();
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'later']);
    c.end();
    later.end();
    await Promise.all(runs);
  });

  test('a request that gives way takes a free slot at once, and a failed request frees its slot', async () => {
    const slots = new RequestSlots(1);
    const behind = slots.givingWay();
    await expect(behind.run(() => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    const started: string[] = [];
    const first = request(started, 'first');
    const running = behind.run(first.work);
    await tick();
    expect(started).toEqual(['first']);
    const next = request(started, 'next');
    const waiting = slots.run(next.work);
    await tick();
    expect(started).toEqual(['first']);
    first.end();
    next.end();
    await Promise.all([running, waiting]);
    expect(started).toEqual(['first', 'next']);
  });
});

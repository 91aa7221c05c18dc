// @vitest-environment jsdom
/**
 * useMirrorQuery: a screen's small query of the local database runs again
 * when a table it names changes, and not for writes elsewhere (which it
 * does not keep either; see src/data/mirror/useMirrorQuery.ts for the heap it saves).
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { touchesTables, useMirrorQuery } from '../../src/data/mirror/useMirrorQuery.ts';
import { houseRecord } from '../support/records.ts';

let db: ScmsDatabase;
afterEach(() => {
  cleanup();
  db?.close();
});

function CallCount({ runs }: { runs: { count: number } }) {
  const calls = useMirrorQuery(
    db,
    ['calls'],
    async () => {
      runs.count++;
      return db.calls.count();
    },
    [],
  );
  return <p>{calls === undefined ? 'loading' : `${calls} calls`}</p>;
}

const call = (id: string) =>
  ({
    id,
    house: 'h1',
    status: 'queued',
    created: '2026-11-01 10:00:00.000Z',
    updated: '2026-11-01 10:00:00.000Z',
  }) as never;

test('runs again after a write to its table, and only then', async () => {
  db = new ScmsDatabase(`mirror-query-${Date.now()}`);
  await db.open();
  const runs = { count: 0 };
  render(<CallCount runs={runs} />);
  expect(await screen.findByText('0 calls')).toBeTruthy();
  const afterFirst = runs.count;

  await act(async () => {
    await db.houses.bulkPut(
      Array.from({ length: 120 }, (_, i) => houseRecord({ id: `house${String(i).padStart(10, '0')}` })),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  expect(runs.count).toBe(afterFirst);

  await act(async () => {
    await db.calls.put(call('call00000000001'));
  });
  expect(await screen.findByText('1 calls')).toBeTruthy();
  expect(runs.count).toBeGreaterThan(afterFirst);
});

test('a failed query reaches the screen instead of showing nothing for good', async () => {
  db = new ScmsDatabase(`mirror-query-error-${Date.now()}`);
  await db.open();
  function Broken() {
    useMirrorQuery(db, ['calls'], () => Promise.reject(new Error('disk is gone')), []);
    return <p>never an error</p>;
  }
  class Catch extends Component<{ children: ReactNode }, { error?: string }> {
    override state: { error?: string } = {};
    static getDerivedStateFromError(error: Error) {
      return { error: error.message };
    }
    override render() {
      return this.state.error ? <p>caught: {this.state.error}</p> : this.props.children;
    }
  }
  const quiet = console.error;
  console.error = () => {};
  try {
    render(
      <Catch>
        <Broken />
      </Catch>,
    );
    expect(await screen.findByText('caught: disk is gone')).toBeTruthy();
  } finally {
    console.error = quiet;
  }
});

test('names the tables of a storagemutated event by their parts', () => {
  const parts = { 'idb://scms-u1/houses/': {}, 'idb://scms-u1/houses/address': {} } as never;
  expect(touchesTables(parts, 'scms-u1', ['houses'])).toBe(true);
  expect(touchesTables(parts, 'scms-u1', ['calls', 'outbox'])).toBe(false);
  // Another user's database on the same device is not this one.
  expect(touchesTables(parts, 'scms-u2', ['houses'])).toBe(false);
  expect(touchesTables({ all: {} } as never, 'scms-u1', ['calls'])).toBe(true);
});

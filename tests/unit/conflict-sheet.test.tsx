// @vitest-environment jsdom
/**
 * 'Changed while you were offline' over a real (fake-indexeddb) outbox: the
 * words of each kind of conflict, and what a choice queues. The server's
 * side and the replay are in tests/integration/conflicts.test.ts; two
 * browsers settling a note both ways in tests/e2e/conflicts.test.ts.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ConflictSheet } from '../../src/app/ConflictSheet.tsx';
import { ScmsDatabase, type OutboxEntry, type RecordConflict } from '../../src/data/mirror/db.ts';
import { outboxEntries } from '../../src/data/sync/outbox.ts';
import { ToastProvider } from '../../src/ui/toast.tsx';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));
// The refresh after a choice reads the server: here there is none to reach.
vi.mock('../../src/api/client.ts', () => ({
  pb: { collection: () => ({ getOne: () => Promise.reject(new Error('offline')) }) },
}));

let db: ScmsDatabase;
beforeEach(() => {
  db = new ScmsDatabase(`conflict-sheet-${Math.random().toString(36).slice(2)}`);
  engine.current = { db };
});
afterEach(async () => {
  cleanup();
  await db.delete();
});

const at = '2026-11-26 10:42:00.000Z';

async function conflictEntry(conflict: RecordConflict, op: OutboxEntry['ops'][number]): Promise<OutboxEntry> {
  const seq = await db.outbox.add({
    userId: 'u1',
    createdAt: new Date().toISOString(),
    label: 'Update home: 12 Palm Way',
    ops: [op],
    recordKeys: [`${op.collection}:${op.id}`],
    status: 'conflict',
    attempts: 0,
    nextAttemptAt: 0,
    conflicts: [conflict],
  });
  return (await db.outbox.get(seq))!;
}

function open(entry: OutboxEntry) {
  const onClose = vi.fn();
  render(
    <ToastProvider>
      <ConflictSheet entry={entry} onClose={onClose} />
    </ToastProvider>,
  );
  return onClose;
}

describe('a field changed by someone else', () => {
  test('who and when, both values, and Keep theirs queues nothing', async () => {
    const entry = await conflictEntry(
      {
        kind: 'changed',
        collection: 'houses',
        id: 'h1',
        action: 'update',
        label: '12 Palm Way',
        fields: [
          { field: 'security_code', base: '1111', mine: '2222', theirs: '3333', byId: 'm1', byName: 'Maria Lopez', at },
        ],
      },
      {
        action: 'update',
        collection: 'houses',
        id: 'h1',
        body: { security_code: '2222' },
        base: { security_code: '1111' },
      },
    );
    const onClose = open(entry);
    screen.getByRole('heading', { name: 'Home: 12 Palm Way' });
    screen.getByText(/^Changed by Maria Lopez at .+ while you were offline$/);
    expect(screen.getByRole('radio', { name: /^Keep mine\s*2222/ })).toHaveProperty('checked', true);
    // A security code is free text: it can be merged too.
    screen.getByRole('radio', { name: 'Edit a merged value' });
    fireEvent.click(screen.getByRole('radio', { name: /^Keep theirs\s*3333/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await outboxEntries(db)).toEqual([]);
  });

  test('a flag is not free text: no merged value; Keep mine queues the value on the current one', async () => {
    const entry = await conflictEntry(
      {
        kind: 'changed',
        collection: 'phones',
        id: 'p1',
        action: 'update',
        label: '+15615550142',
        fields: [{ field: 'do_not_call', base: false, mine: true, theirs: false, byId: '', byName: '', at: '' }],
      },
      { action: 'update', collection: 'phones', id: 'p1', body: { do_not_call: true }, base: { do_not_call: false } },
    );
    // `theirs` equal to the base cannot come from the server; here it shows the words for an unknown author.
    const onClose = open(entry);
    screen.getByRole('heading', { name: 'Phone: +15615550142' });
    screen.getByText('Changed by someone else while you were offline');
    expect(screen.queryByRole('radio', { name: 'Edit a merged value' })).toBeNull();
    screen.getByRole('radio', { name: /^Keep mine\s*Yes/ });
    screen.getByRole('radio', { name: /^Keep theirs\s*No/ });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [queued] = await outboxEntries(db);
    expect(queued).toMatchObject({
      status: 'pending',
      ops: [
        { action: 'update', collection: 'phones', id: 'p1', body: { do_not_call: true }, base: { do_not_call: false } },
      ],
    });
  });
});

describe('a whole record', () => {
  test('removed here, changed there: Keep mine removes it anyway, based on their values', async () => {
    const entry = await conflictEntry(
      {
        kind: 'changed',
        collection: 'phones',
        id: 'p1',
        action: 'delete',
        label: '+15615550142',
        fields: [
          {
            field: 'phone_number',
            base: '+15615550142',
            mine: null,
            theirs: '+15615550199',
            byId: 'm1',
            byName: 'Maria Lopez',
            at,
          },
        ],
      },
      {
        action: 'delete',
        collection: 'phones',
        id: 'p1',
        body: {},
        base: { phone_number: '+15615550142', type: 'cell' },
      },
    );
    const onClose = open(entry);
    screen.getByText('You removed this. It was changed since:');
    screen.getByText(/\(561\) 555-0142 → \(561\) 555-0199/);
    fireEvent.click(screen.getByRole('radio', { name: /^Keep mine\s*Remove it anyway/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [queued] = await outboxEntries(db);
    expect(queued!.ops).toEqual([
      {
        action: 'delete',
        collection: 'phones',
        id: 'p1',
        body: {},
        base: { phone_number: '+15615550199', type: 'cell' },
      },
    ]);
  });

  test('edited here, deleted there: who deleted it, the changes, and Add it again creates it anew', async () => {
    const entry = await conflictEntry(
      {
        kind: 'deleted',
        collection: 'residents',
        id: 'r1',
        action: 'update',
        label: 'Yoly Vasquez',
        deletedBy: { name: 'Maria Lopez', at },
        record: { id: 'r1', first_name: 'Yoly', last_name: 'Vasquez', owner: true, house: 'h1' },
        fields: [{ field: 'first_name', base: 'Yolanda', mine: 'Yoly', theirs: null, byId: '', byName: '', at: '' }],
      },
      {
        action: 'update',
        collection: 'residents',
        id: 'r1',
        body: { first_name: 'Yoly' },
        base: { first_name: 'Yolanda' },
      },
    );
    const onClose = open(entry);
    screen.getByText(/^Deleted by Maria Lopez at .+ while you were offline\. Your changes:$/);
    screen.getByText('First name:');
    expect(screen.getByRole('radio', { name: 'Add it again' })).toHaveProperty('checked', true);
    screen.getByRole('radio', { name: 'Leave it deleted' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [queued] = await outboxEntries(db);
    expect(queued!.ops).toEqual([
      {
        action: 'create',
        collection: 'residents',
        id: expect.not.stringMatching(/^r1$/),
        body: { first_name: 'Yoly', last_name: 'Vasquez', owner: true, house: 'h1' },
      },
    ]);
    // The new resident shows at once, pending.
    expect(await db.residents.get(queued!.ops[0]!.id)).toMatchObject({ first_name: 'Yoly', _pending: 1 });
  });
});

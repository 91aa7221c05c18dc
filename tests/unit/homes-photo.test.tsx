// @vitest-environment jsdom
/**
 * A home queued with a photo: the mirror keeps the server's
 * shape for `image` (a file name string; the Blob waits in the outbox), the
 * card shows the queued photo through an object URL made from the outbox's
 * Blob and revoked when the card goes, and the server's file name takes
 * over once the upload lands.
 */
import { Blob as NodeBlob } from 'node:buffer';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { RecordModel } from 'pocketbase';
import { pb } from '../../src/api/client.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords } from '../../src/data/mirror/mirror.ts';
import { queueSaveHome } from '../../src/data/resources/homes.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let dbCount = 0;
const user = { id: 'u1', community: 'c1' };
const createObjectURL = vi.fn((_blob: Blob) => `blob:local-${createObjectURL.mock.calls.length}`);
const revokeObjectURL = vi.fn();
// One object: useSyncExternalStore compares snapshots by identity.
const status = { online: false, syncing: false, authRequired: false, lastError: null };

beforeAll(() => {
  pb.authStore.save('token', { id: 'u1', community: 'c1', collectionId: 'users', collectionName: 'users' });
});

beforeEach(() => {
  db = new ScmsDatabase(`homes-photo-test-${++dbCount}`);
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  createObjectURL.mockClear();
  revokeObjectURL.mockClear();
  // jsdom has no object URLs.
  Object.assign(URL, { createObjectURL, revokeObjectURL });
});

afterEach(() => {
  cleanup();
  db.close();
});

// Node's Blob: fake-indexeddb stores it with Node's structured clone (jsdom's Blob does not survive it; a browser's does).
const photo = () => new NodeBlob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], { type: 'image/jpeg' }) as unknown as Blob;
const HOUSE = {
  address: '9 Heron Ln',
  apt: '',
  city: 'Jupiter',
  state: 'FL',
  zip: '33458',
  note: '',
  member_number: '',
  security_code: '',
};

describe('a home queued with a photo', () => {
  test('the mirror holds a file name string, never the Blob or a list', async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE, image: photo() });
    const row = await db.houses.get(id);
    expect(typeof row?.image).toBe('string');
    expect(row?.image).toBe('pending-0');
    // The Blob itself waits in the outbox for the upload.
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops[0]?.files?.image?.[0]).toBeInstanceOf(NodeBlob);
  });

  test('an update with a new photo keeps the string shape too', async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE });
    await queueSaveHome(db, user, { house: { note: 'new gate' }, image: photo() }, id);
    expect(await db.houses.get(id)).toMatchObject({ image: 'pending-0', note: 'new gate' });
  });

  test('Remove image queues the photo field emptied: the mirror shows no photo at once', async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE });
    await db.outbox.clear();
    await db.houses.update(id, { image: 'front_abc.jpg' });
    await queueSaveHome(db, user, { house: {}, image: null }, id);
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops).toHaveLength(1);
    expect(entry?.ops[0]).toMatchObject({ action: 'update', collection: 'houses', id, body: { image: '' } });
    expect(entry?.ops[0]?.files).toBeUndefined();
    expect((await db.houses.get(id))?.image).toBe('');
  });

  test('no photo choice leaves the photo alone and queues nothing for an unchanged home', async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE });
    await db.outbox.clear();
    await queueSaveHome(db, user, { house: {} }, id);
    expect(await db.outbox.count()).toBe(0);
  });

  test("a pull while the photo is queued keeps the queued one, not the server's older file", async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE });
    await db.outbox.clear();
    await queueSaveHome(db, user, { house: {}, image: photo() }, id);
    await applyServerRecords(db, 'houses', [
      { ...(await db.houses.get(id)), image: 'old_photo.jpg', collectionName: 'houses' } as unknown as RecordModel,
    ]);
    expect((await db.houses.get(id))?.image).toBe('pending-0');
  });

  test('the card shows the queued photo from the outbox, revokes its URL when it goes, and the server file name after the upload', async () => {
    const id = await queueSaveHome(db, user, { house: HOUSE, image: photo() });
    const view = render(
      <MemoryRouter>
        <ToastProvider>
          <HomesPage />
        </ToastProvider>
      </MemoryRouter>,
    );
    const card = await screen.findByRole('article', { name: /9 Heron Ln/ });
    const image = await within(card).findByRole('img', { name: /^Home at 9 Heron Ln/ });
    await waitFor(() => expect(image.getAttribute('src')).toMatch(/^blob:local-/));
    expect(createObjectURL.mock.calls.at(-1)?.[0]).toBeInstanceOf(NodeBlob);
    const localUrl = image.getAttribute('src');

    // The upload lands: the entry leaves the outbox and the server's record (with its file name) replaces the row.
    await db.outbox.clear();
    await applyServerRecords(db, 'houses', [
      {
        ...(await db.houses.get(id)),
        image: 'heron_abc123.jpg',
        collectionId: 'houses',
        collectionName: 'houses',
      } as unknown as RecordModel,
    ]);
    await waitFor(() =>
      expect(
        within(screen.getByRole('article', { name: /9 Heron Ln/ }))
          .getByRole('img')
          .getAttribute('src'),
      ).toContain('/api/files/houses/'),
    );
    expect(revokeObjectURL).toHaveBeenCalledWith(localUrl);
    view.unmount();
  });

  test('unmounting the list revokes the local photo URL', async () => {
    await queueSaveHome(db, user, { house: HOUSE, image: photo() });
    const view = render(
      <MemoryRouter>
        <ToastProvider>
          <HomesPage />
        </ToastProvider>
      </MemoryRouter>,
    );
    const card = await screen.findByRole('article', { name: /9 Heron Ln/ });
    await waitFor(() => expect(within(card).getByRole('img').getAttribute('src')).toMatch(/^blob:/));
    const localUrl = within(card).getByRole('img').getAttribute('src');
    view.unmount();
    expect(revokeObjectURL).toHaveBeenCalledWith(localUrl);
  });
});

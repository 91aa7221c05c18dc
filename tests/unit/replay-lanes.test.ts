/**
 * The outbox's two lanes (src/data/sync/lanes.ts): uploads one at a time in
 * order; everything else in order, passing over the uploads and what depends
 * on them, and waiting for what it depends on itself.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { ScmsDatabase, type OutboxOperation } from '../../src/data/mirror/db.ts';
import { newRecordId } from '../../src/data/mirror/ids.ts';
import { nextInLane } from '../../src/data/sync/lanes.ts';
import { enqueue } from '../../src/data/sync/outbox.ts';

let db: ScmsDatabase;
afterEach(async () => {
  await db?.delete();
});

const photo = () => new Blob([new Uint8Array(8)], { type: 'image/jpeg' });

function report(extra: Partial<OutboxOperation> = {}, body: Record<string, unknown> = {}): OutboxOperation {
  return { action: 'create', collection: 'reports', id: newRecordId(), body: { narative: 'x', ...body }, ...extra };
}

async function queue(label: string, ...ops: OutboxOperation[]): Promise<number> {
  return enqueue(db, { userId: 'u1', label, ops });
}

const labels = async (lane: 'text' | 'uploads') => (await nextInLane(db, lane)).map((entry) => entry.label);

describe('the lanes of the outbox', () => {
  test('a text entry queued after an upload goes in the text lane; the upload in its own', async () => {
    db = new ScmsDatabase(`lanes-${newRecordId()}`);
    await queue('photo report', report({ files: { photos: [photo()] } }));
    await queue('text report', report());
    expect(await labels('text')).toEqual(['text report']);
    expect(await labels('uploads')).toEqual(['photo report']);
  });

  test('independent creates batch together past an upload between them', async () => {
    db = new ScmsDatabase(`lanes-${newRecordId()}`);
    await queue('one', report());
    await queue('photo', report({ files: { photos: [photo()] } }));
    await queue('two', report());
    expect(await labels('text')).toEqual(['one', 'two']);
  });

  test('a report on a home added with a photo waits for that upload', async () => {
    db = new ScmsDatabase(`lanes-${newRecordId()}`);
    const house: OutboxOperation = {
      action: 'create',
      collection: 'houses',
      id: newRecordId(),
      body: { address: '1 Palm Way' },
      files: { image: [photo()] },
    };
    await queue('home with photo', house);
    await queue('report on it', report({}, { house: house.id }));
    await queue('report elsewhere', report());
    expect(await labels('text')).toEqual(['report elsewhere']);
    expect(await labels('uploads')).toEqual(['home with photo']);
  });

  test('an edit of a record an upload writes waits for it; an upload waits for an older entry it depends on', async () => {
    db = new ScmsDatabase(`lanes-${newRecordId()}`);
    const houseId = newRecordId();
    await queue('home', { action: 'create', collection: 'houses', id: houseId, body: { address: '2 Palm Way' } });
    await queue('photo of the home', {
      action: 'update',
      collection: 'houses',
      id: houseId,
      body: {},
      files: { image: [photo()] },
    });
    await queue('note on the home', { action: 'update', collection: 'houses', id: houseId, body: { note: 'Gate' } });
    // The upload needs the home created first; the note needs the upload first.
    expect(await labels('uploads')).toEqual([]);
    expect(await labels('text')).toEqual(['home']);
  });

  test('uploads go one at a time, oldest first', async () => {
    db = new ScmsDatabase(`lanes-${newRecordId()}`);
    await queue('first photo', report({ files: { photos: [photo()] } }));
    await queue('second photo', report({ files: { photos: [photo()] } }));
    expect(await labels('uploads')).toEqual(['first photo']);
    expect(await labels('text')).toEqual([]);
  });
});

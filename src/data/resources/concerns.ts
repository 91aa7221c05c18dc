/**
 * The community's concerns (docs/product.md#concerns): the list the screens
 * read from the mirror's search index, and the director's online-only
 * writes, whose answer goes into the mirror at once.
 */
import { useMemo } from 'react';
import { pb } from '../../api/client.ts';
import type { ConcernRecord } from '../../api/records.ts';
import type { ConcernValues } from '../../domain/schemas.ts';
import type { Staff } from '../auth.ts';
import { useSearchIndex } from '../hooks.ts';
import type { ScmsDatabase } from '../mirror/db.ts';
import { applyServerRecords, removeServerRecords } from '../mirror/mirror.ts';
import { searchIndexOf } from '../mirror/searchIndex.ts';

export async function queryConcerns(db: ScmsDatabase, search = ''): Promise<ConcernRecord[]> {
  const index = searchIndexOf(db);
  await index.ready('concerns');
  return index.concerns.search(search);
}

export function useConcerns(search = ''): ConcernRecord[] | undefined {
  const { index, version } = useSearchIndex('concerns');
  return useMemo(() => (version < 0 ? undefined : index.concerns.search(search)), [index, version, search]);
}

export async function createConcern(db: ScmsDatabase, director: Staff, values: ConcernValues): Promise<void> {
  const created = await pb
    .collection('concerns')
    .create({ ...values, added_by: director.id, community: director.community });
  await applyServerRecords(db, 'concerns', [created]);
}

export async function updateConcern(
  db: ScmsDatabase,
  director: Staff,
  concern: ConcernRecord,
  values: ConcernValues,
): Promise<void> {
  await applyServerRecords(db, 'concerns', [
    await pb.collection('concerns').update(concern.id, { ...values, added_by: director.id }),
  ]);
}

export async function deleteConcern(db: ScmsDatabase, concern: ConcernRecord): Promise<void> {
  await pb.collection('concerns').delete(concern.id);
  await removeServerRecords(db, 'concerns', [concern.id]);
}

/**
 * What a user's session keeps in memory beside the mirror in IndexedDB,
 * one of each per database instance: the search index (searchIndex.ts) and
 * the tour rounds of the shift (resources/shiftBoard.ts). Each is made when
 * a screen first asks for it, follows the mirror from then on, and is let
 * go of here when its user logs out (wipe.ts): nothing of the community
 * stays in memory, whichever views a session happened to open.
 */
import type { ScmsDatabase } from './db.ts';

export interface MemoryView {
  /** Stops following the mirror and drops every record held. */
  dispose(): void;
}

const views = new WeakMap<ScmsDatabase, Map<string, MemoryView>>();

/** The database's view of that name, made by `make` the first time it is asked for. */
export function memoryView<T extends MemoryView>(db: ScmsDatabase, name: string, make: () => T): T {
  let ofDb = views.get(db);
  if (!ofDb) views.set(db, (ofDb = new Map()));
  let view = ofDb.get(name);
  if (!view) ofDb.set(name, (view = make()));
  return view as T;
}

/** Disposes of every view of a database instance (its user logged out). */
export function releaseMemoryViews(db: ScmsDatabase): void {
  const ofDb = views.get(db);
  views.delete(db);
  for (const view of ofDb?.values() ?? []) view.dispose();
}

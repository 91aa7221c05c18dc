/**
 * The mirror's schema as each published version of the app created it,
 * written out here rather than imported from src/data/mirror/db.ts: a test that
 * opens such a database with today's app fails when a published version
 * was edited instead of followed by a new one.
 */

export const VERSION_1_STORES = {
  communities: 'id',
  users: 'id, community',
  houses: 'id, address, community',
  residents: 'id, house',
  phones: 'id, house',
  concerns: 'id, community',
  reports: 'id, incident_time, created, house',
  calls: 'id, house, created',
  outbox: '++seq, status, *recordKeys',
  syncState: 'key',
};

/** Version 2 added these to version 1's: the attempts of every call and the call settings. */
export const VERSION_2_STORES = {
  ...VERSION_1_STORES,
  call_attempts: 'id, house, call',
  call_settings: 'id, community',
};

/** Version 3 added the newest call of each home (keyed by the home's id). */
export const VERSION_3_STORES = {
  ...VERSION_2_STORES,
  latest_calls: 'id, call',
};

/** Version 4 added the history of the homes (read by home). */
export const VERSION_4_STORES = {
  ...VERSION_3_STORES,
  home_changes: 'id, house',
};

/** Version 5 gave the homes their place in the list (indexed). */
export const VERSION_5_STORES = {
  ...VERSION_4_STORES,
  houses: 'id, address, community, sort_key',
};

/** Version 6 kept a first load's pages until they are written as rows. */
export const VERSION_6_STORES = {
  ...VERSION_5_STORES,
  load_pages: 'key',
};

/** Version 7 added checkpoint tours: checkpoints, tours, the walks of rounds and their scans. */
export const VERSION_7_STORES = {
  ...VERSION_6_STORES,
  checkpoints: 'id, community',
  tours: 'id, community',
  tour_walks: 'id, [tour+round_start], round_start',
  checkpoint_scans: 'id, walk, checkpoint, scanned_at',
};

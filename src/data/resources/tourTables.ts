/**
 * The mirror's tables a tours board is read from (tourBoards.ts): a change
 * of any of them can change it. A module of its own, so the screens that
 * load the boards lazily (the dashboard's figures) name the same tables
 * without loading them.
 */
export const BOARD_TABLES = [
  'call_settings',
  'tours',
  'checkpoints',
  'tour_walks',
  'checkpoint_scans',
  'users',
] as const;

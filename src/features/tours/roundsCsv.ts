/**
 * The rounds on the Tours screen as CSV (the shift under way, or a past
 * day): one row per round with how it went, for a manager's records or a
 * client's invoice. Escaped as every export of the app (src/ui/csv.ts).
 */
import type { ToursBoard } from '../../data/resources/tourBoards.ts';
import { csvRow } from '../../ui/csv.ts';
import { formatDateTime, personName } from '../../ui/format.ts';
import { ROUND_STATUS_WORDS } from '../../ui/roundWords.ts';

export const ROUNDS_CSV_COLUMNS = [
  'Round',
  'Due by',
  'Tour',
  'Status',
  'Scanned',
  'Checkpoints',
  'Officers',
  'Missed checkpoints',
  'Out of order',
  'Reason',
] as const;

export function roundsCsv(board: Pick<ToursBoard, 'rounds' | 'checkpoints' | 'officers'>): string {
  const name = (id: string) => board.checkpoints.get(id)?.name ?? 'A deleted checkpoint';
  const rows = board.rounds.map(({ tour, round, walks, outcome }) => [
    formatDateTime(new Date(round.startsAt)),
    formatDateTime(new Date(round.dueBy)),
    tour.name,
    ROUND_STATUS_WORDS[outcome.status],
    String(outcome.scanned.length),
    String(tour.checkpoints.length),
    [...new Set(walks.map((walk) => personName(board.officers.get(walk.officer))))].join(', '),
    outcome.missed.map(name).join(', '),
    outcome.outOfOrder.map(name).join(', '),
    walks
      .map((walk) => walk.end_reason)
      .filter(Boolean)
      .join(' · '),
  ]);
  return [csvRow(ROUNDS_CSV_COLUMNS), ...rows.map(csvRow)].join('\r\n') + '\r\n';
}

/**
 * A tour round's status in words and colours: the Tours screens, the daily
 * activity report and the dashboard say it the same way.
 */
import type { RoundStatus } from '../domain/tourRounds.ts';

export const ROUND_STATUS_WORDS: Record<RoundStatus, string> = {
  upcoming: 'Upcoming',
  due: 'Due',
  in_progress: 'In progress',
  on_time: 'On time',
  late: 'Late',
  incomplete: 'Incomplete',
  missed: 'Missed',
};

/** The chip's colours: done well, under way, gone wrong. */
export const ROUND_STATUS_TONE: Record<RoundStatus, string> = {
  upcoming: 'bg-gray-100 text-gray-800',
  due: 'bg-blue-100 text-blue-900',
  in_progress: 'bg-blue-100 text-blue-900',
  on_time: 'bg-green-100 text-green-900',
  late: 'bg-amber-100 text-amber-900',
  incomplete: 'bg-red-100 text-red-900',
  missed: 'bg-red-100 text-red-900',
};

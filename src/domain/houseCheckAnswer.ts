/**
 * A house check's answer to 'Is everything ok?' as data: the report's
 * `everything_ok`, 'yes' or 'no' on a house check and '' on every other
 * report. The narrative (docs/product.md#house-checks) stays as it always was; the answer lives
 * beside it, so the card, the CSV, the daily report, the dashboard and the
 * list's filter can tell a failed check from a passed one.
 *
 * Shared with the server: compiled into pb_hooks/lib/generated/
 * house_check_answer.js (scripts/pocketbase/hook-libs.ts), where
 * pb_hooks/reports.pb.js derives the answer of a house check sent without
 * one (an entry an older app version left in the outbox). No imports: every
 * hook VM that loads it parses only this file.
 */

/** The house-check narratives, spelled correctly (docs/product.md#decisions). */
export const HOUSE_CHECK_OK_NARRATIVE =
  'House was inspected on the date and time mentioned above and everything is ok.';
export const HOUSE_CHECK_ISSUES_NARRATIVE = 'House was inspected and issues were found';

export const EVERYTHING_OK_VALUES = ['yes', 'no'] as const;
export type EverythingOk = (typeof EVERYTHING_OK_VALUES)[number];
/** As a report holds it: '' when the report is not a house check, or the answer was never recorded. */
export type EverythingOkValue = EverythingOk | '';

export const EVERYTHING_OK_LABEL = 'Everything ok';
/** A house check whose answer is not known: made before the answer was kept, with a remark instead of a standard narrative. */
export const NOT_RECORDED = 'Not recorded';
/** The server's word for everything_ok on a report of another type. */
export const ONLY_HOUSE_CHECKS = "Only a house check answers 'Is everything ok?'";

export function everythingOkOf(everythingOk: boolean): EverythingOk {
  return everythingOk ? 'yes' : 'no';
}

const ISSUES = /^house was ins?pected and issues were found/i;
const OK = /^house was inspected on the date and time mentioned above and everything is ok/i;

/**
 * The answer a house check's narrative gives away, for checks stored before
 * the answer was kept. Without a remark the narrative is one of the two
 * two sentences (the issues one also in the original's spelling,
 * 'inpected'), which tell; a remark replaces the sentence and does not, so
 * the answer stays '' (unknown) rather than a guess. A leading <p> (older
 * narratives were HTML) and white space are passed over. The migration
 * that added the field (pb_migrations/1765000000_report_everything_ok.js)
 * backfills with the same rule in SQL.
 */
export function answerFromNarrative(narrative: string): EverythingOkValue {
  const text = narrative.replace(/^\s*(?:<p>\s*)?/i, '');
  if (ISSUES.test(text)) return 'no';
  if (OK.test(text)) return 'yes';
  return '';
}

export interface AnsweredReport {
  type: string;
  /** Missing on a report a device mirrored before the field existed. */
  everything_ok?: string;
  narative?: string;
}

/**
 * A report's answer as the server holds it: '' on any other type. A device
 * that mirrored a check before the field existed has no value for it, and
 * the migration's backfill does not change `updated` (every device would
 * pull every check again); such a row gets the backfill's own rule here,
 * so it reads as the server's copy does.
 */
export function answerOf(report: AnsweredReport): EverythingOkValue {
  if (report.type !== 'house_check') return '';
  if (report.everything_ok === undefined) return answerFromNarrative(report.narative ?? '');
  return report.everything_ok === 'yes' || report.everything_ok === 'no' ? report.everything_ok : '';
}

/** 'Yes', 'No', or 'Not recorded' for a house check; '' for any other report. */
export function everythingOkWord(report: AnsweredReport): string {
  if (report.type !== 'house_check') return '';
  const answer = answerOf(report);
  return answer === 'yes' ? 'Yes' : answer === 'no' ? 'No' : NOT_RECORDED;
}

/** 'Everything ok: No' for a house check; '' for any other report. */
export function everythingOkLine(report: AnsweredReport): string {
  const word = everythingOkWord(report);
  return word ? `${EVERYTHING_OK_LABEL}: ${word}` : '';
}

/** A house check answered No. */
export function hasIssues(report: AnsweredReport): boolean {
  return answerOf(report) === 'no';
}

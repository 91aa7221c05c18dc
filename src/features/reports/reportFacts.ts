/**
 * What a report says, in words, for the card on screen and the compact row
 * of the printed list alike: the facts with their labels, when it was
 * written and sent, where, and how many photos.
 */
import type { ReportWithLinks } from '../../data/resources/reports.ts';
import type { EverythingOkValue } from '../../domain/houseCheckAnswer.ts';
import { parsePbDate } from '../../domain/pbDate.ts';
import { loggedAndSent, positionMapUrl, type ReportPosition } from '../../domain/whereAndWhen.ts';
import {
  formatAddress,
  formatDateTime,
  formatPhone,
  formatTime,
  NOT_AVAILABLE,
  personName,
  weatherLabel,
  yesNo,
} from '../../ui/format.ts';

/** A house check's answer badge: green Yes, red No, grey when not recorded (a border on paper). */
export const ANSWER_STYLE: Record<EverythingOkValue, string> = {
  yes: 'bg-emerald-100 text-emerald-900 print:border-emerald-900',
  no: 'bg-red-100 text-red-900 print:border-red-900',
  '': 'bg-gray-100 text-gray-800 print:border-gray-800',
};

/** The facts under a report's type, label and value, in the card's order. */
export function reportFacts({ report, house, resident, officer }: ReportWithLinks): Array<[string, string]> {
  return [
    ['Incident time', formatDateTime(report.incident_time)],
    ['Officer', personName(officer)],
    ['Address', formatAddress(house)],
    ['Weather', weatherLabel(report.weather)],
    ['Resident', personName(resident)],
    ['Phone', formatPhone(report.phone_number)],
    ['Member #', house?.member_number || NOT_AVAILABLE],
    ['Injury', yesNo(report.injury)],
    ['EMS/PBSO', yesNo(report.ems_pbso)],
  ];
}

/** 'Logged 02:14 (sent 02:31)' for a report kept offline and sent later; null when sent at once. */
export function loggedSentLine(report: ReportWithLinks['report']): string | null {
  return loggedAndSent(parsePbDate(report.logged_at), parsePbDate(report.created), (date, withDay) =>
    withDay ? formatDateTime(date) : formatTime(date),
  );
}

/** '26.93412, -80.09421', the accuracy '±12 m' and the place on a map. */
export function positionWords(position: ReportPosition): { place: string; accuracy: string; url: string } {
  return {
    place: `${position.latitude.toFixed(5)}, ${position.longitude.toFixed(5)}`,
    accuracy: `±${Math.round(position.accuracy)} m`,
    url: positionMapUrl(position),
  };
}

export const photoCount = (count: number) => `${count} photo${count === 1 ? '' : 's'}`;

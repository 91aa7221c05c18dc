/**
 * The Tours screens' words for a round and a scan, in one place (the
 * screens and their tests read them from here).
 */
import { distanceText, type ScanPlace } from '../../domain/checkpointCode.ts';

export const TOUR_WORDS = {
  title: 'Tours',
  checkpoints: 'Checkpoints',
  addTour: 'Add tour',
  editTour: 'Edit tour',
  addCheckpoint: 'Add checkpoint',
  editCheckpoint: 'Edit checkpoint',
  printCodes: 'Print checkpoint codes',
  startTour: 'Start tour',
  continueTour: 'Continue tour',
  scanCheckpoint: 'Scan checkpoint',
  enterCode: 'Enter code',
  endTour: 'End tour',
  saveScan: 'Save scan',
  writeReport: 'Write report',
  noRounds: 'No rounds are due in this shift.',
  noTours: 'No tours yet. Add checkpoints, then a tour that walks them.',
  noCheckpoints: 'No checkpoints yet.',
  endReasonLabel: 'Why are checkpoints left?',
  endReasonRequired: 'Say why the tour ends with checkpoints left',
  notOnTour: 'This checkpoint is not on this tour.',
  answerRequired: 'Answer the question',
  codesPending: 'Codes come when the server has the checkpoint: connect to print it.',
  deleteOffline: 'Deleting needs a connection.',
} as const;

/** Where a scan was made, in words: '' when it was where it should be. */
export function placeWords(place: ScanPlace | { place: '' | ScanPlace['place']; distance: number | null }): string {
  if (place.place === 'outside' && place.distance !== null) return distanceText(place.distance);
  if (place.place === 'unknown') return 'Position unknown';
  return '';
}

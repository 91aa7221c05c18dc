import { describe, expect, it } from 'vitest';
import { latestCallWord, type CallAttemptFields } from '../../src/domain/callOutcome.ts';
import { callTime } from '../../src/features/homes/callTime.ts';
import { quietHoursQuestion } from '../../src/domain/quietHours.ts';

const time = (date: string) => date.slice(11, 16);
const ended = (outcome: string, at = '2026-11-24 10:42:07.000Z'): CallAttemptFields => ({
  state: 'ended',
  outcome,
  ended_at: at,
});
const skipped: CallAttemptFields = { state: 'skipped', outcome: '', ended_at: '' };
const done = (outcome: string, acknowledged = false) => ({ progress: 'done', outcome, acknowledged });

describe("the home card's word for the latest call", () => {
  it.each([
    ['answered', [ended('answered')], 'Answered 10:42'],
    ['answered on a retry', [ended('busy', '2026-11-24 10:30:00.000Z'), ended('answered')], 'Answered 10:42'],
    ['voicemail', [ended('voicemail')], 'Voicemail'],
    [
      'no answer after 3 tries',
      [ended('no_answer'), ended('no_answer'), skipped, ended('no_answer')],
      'No answer after 3 tries',
    ],
    ['no answer once', [ended('no_answer')], 'No answer'],
    ['busy', [ended('busy'), ended('busy')], 'Busy'],
    ['failed', [ended('failed')], 'Failed'],
  ] as const)('%s', (_, attempts, word) => {
    const outcome = attempts.at(-1)!.outcome;
    expect(latestCallWord(done(outcome), attempts, time)).toBe(word);
  });

  it('acknowledged wins over the outcome', () => {
    expect(latestCallWord(done('answered', true), [ended('answered')], time)).toBe('Acknowledged');
  });

  it('nothing while the job runs or for a call from before attempts', () => {
    expect(latestCallWord({ progress: 'waiting', outcome: '', acknowledged: false }, [ended('busy')], time)).toBe('');
    expect(latestCallWord({ progress: 'calling', outcome: '', acknowledged: false }, [], time)).toBe('');
    expect(latestCallWord({ progress: '', outcome: '', acknowledged: false }, [], time)).toBe('');
    expect(latestCallWord(done('exploded'), [], time)).toBe('');
  });

  it('the quiet-hours question says why it asks: the time and the quiet hours it falls in', () => {
    expect(quietHoursQuestion({ localTime: '22:14', quietStart: '21:00', quietEnd: '08:00' })).toBe(
      "It is 22:14 for the resident, within the community's quiet hours (21:00–08:00). Call anyway?",
    );
  });
});

describe('call times on the card and in Call history', () => {
  it('reads a time of today as HH:MM and an older one with its day, in local time', () => {
    const now = new Date(2026, 10, 24, 15, 0);
    const local = (d: Date) => d.toISOString().replace('T', ' ');
    expect(callTime(local(new Date(2026, 10, 24, 10, 42, 7)), now)).toBe('10:42');
    expect(callTime(local(new Date(2026, 10, 24, 0, 5)), now)).toBe('00:05');
    expect(callTime(local(new Date(2026, 10, 20, 9, 3)), now)).toBe('Nov 20, 09:03');
    expect(callTime(local(new Date(2025, 0, 2, 23, 59)), now)).toBe('Jan 2, 23:59');
    expect(callTime('', now)).toBe('');
  });
});

/**
 * The Tours screen's CSV export (src/features/tours/roundsCsv.ts): a row
 * per round with how it went, escaped as every export of the app.
 */
import { describe, expect, it } from 'vitest';
import type { Checkpoint, ToursBoard } from '../../src/data/resources/tourBoards.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { roundsBoard } from '../../src/domain/tourBoard.ts';
import { ROUNDS_CSV_COLUMNS, roundsCsv } from '../../src/features/tours/roundsCsv.ts';

const pb = (iso: string) => pbDate(new Date(iso));

describe('roundsCsv', () => {
  it('writes each round with its status, officers, missed checkpoints and reason', () => {
    const tour = {
      id: 't1',
      name: 'Night, north side',
      checkpoints: ['a', 'b'],
      start: '20:00',
      end: '22:00',
      every_minutes: 120,
      round_minutes: 30,
      ordered: true,
      active: true,
    };
    const walks = [
      {
        id: 'w1',
        tour: 't1',
        officer: 'u1',
        round_start: pb('2026-11-26T01:00:00Z'),
        started_at: pb('2026-11-26T01:02:00Z'),
        ended_at: pb('2026-11-26T01:20:00Z'),
        end_reason: 'Gate "B" blocked',
      },
    ];
    const scans = [{ id: 's1', walk: 'w1', checkpoint: 'a', scanned_at: pb('2026-11-26T01:05:00Z') }];
    const board = {
      rounds: roundsBoard([tour], walks, scans, {
        zone: 'America/New_York',
        now: Date.parse('2026-11-26T05:00:00Z'),
        day: Date.parse('2026-11-25T17:00:00Z'),
      }),
      checkpoints: new Map([
        ['a', { name: 'North gate' }],
        ['b', { name: '=Pool gate' }],
      ]) as unknown as Map<string, Checkpoint>,
      officers: new Map([['u1', { first_name: 'Luis', last_name: 'Ortega' }]]) as unknown as ToursBoard['officers'],
    } as ToursBoard;
    const lines = roundsCsv(board).split('\r\n');
    expect(lines[0]).toBe(ROUNDS_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(4); // two rounds, and the final CRLF
    expect(lines[1]).toContain('"Night, north side",Incomplete,1,2,Luis Ortega,\'=Pool gate,,"Gate ""B"" blocked"');
    expect(lines[2]).toContain('"Night, north side",Missed,0,2,,"North gate, =Pool gate",,');
  });
});

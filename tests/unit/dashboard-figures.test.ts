/**
 * The manager's view's figures: the house-check due rule per
 * day, reports by type and by week, calls by outcome, the homes with the
 * most reports.
 */
import { endOfDay, endOfMonth, isSameDay, startOfMonth } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { houseChecksByDay, isHouseCheckDueOn } from '../../src/domain/houseCheckDays.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import {
  callsByOutcome,
  checksSince,
  dashboardFigures,
  houseCheckFigures,
  reportsByType,
  reportsByWeek,
  topHomes,
  type PeriodCall,
  type PeriodReport,
} from '../../src/features/dashboard/figures.ts';

/** November 2026: Sunday the 1st, Monday the 2nd … Monday the 30th. */
const d = (day: number, hour = 12, month = 10) => new Date(2026, month, day, hour);
const NOV = { from: startOfMonth(d(1)), to: endOfMonth(d(1)) };

let seq = 0;
const report = (day: number, type = 'loud_noise', house = 'h1', hour = 12): PeriodReport => ({
  id: `r${++seq}`,
  type,
  incident_time: pbDate(d(day, hour)),
  house,
});
const call = (outcome: string, progress = 'done', day = 5): PeriodCall =>
  ({ id: `c${++seq}`, created: pbDate(d(day)), outcome, progress }) as PeriodCall;

const windowHome = (id: string, start: number, end: number, last?: Date) => ({
  id,
  address: `${id} Egret Way`,
  apt: '',
  house_check: true,
  house_check_start_date: pbDate(d(start, 0)),
  house_check_end_date: pbDate(endOfDay(d(end))),
  house_check_last_date: last ? pbDate(last) : '',
});

describe('the house-check due rule, day by day', () => {
  const home = windowHome('h1', 10, 14);

  it('is due on each day of the window until the day of the first check in it (that day included), then not', () => {
    const checks = [d(12, 9)];
    const due = [9, 10, 11, 12, 13, 14, 15].map((day) => isHouseCheckDueOn(home, d(day), checks));
    expect(due).toEqual([false, true, true, true, false, false, false]);
  });

  it('a check before the window does not count; house_check off is never due', () => {
    expect(isHouseCheckDueOn(home, d(11), [d(9, 23)])).toBe(true);
    expect(isHouseCheckDueOn({ ...home, house_check: false }, d(11), [])).toBe(false);
  });

  it("counts due and done per day, the home's last-checked date standing for a check the device has no report of", () => {
    const homes = [
      windowHome('a', 10, 12),
      windowHome('b', 11, 13, d(11, 8)),
      { ...windowHome('off', 10, 12), house_check: false },
    ];
    const days = houseChecksByDay(homes, new Map([['a', [d(12, 7)]]]), d(10, 0), d(13, 0));
    expect(days.map(({ due, done }) => [due, done])).toEqual([
      [1, 0], // 10th: a
      [2, 1], // 11th: a, b (checked that day)
      [1, 1], // 12th: a, checked
      [0, 0], // 13th: b already checked in its window
    ]);
    expect(days[0]!.day).toEqual(d(10, 0));
  });
});

describe('the whole period at once agrees with the rule day by day', () => {
  it('for homes with random windows, checks (before, in and after the window) and last-checked dates', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // Some at midnight sharp: the first instant of a day belongs to it.
    const at = (day: number) =>
      new Date(2026, 9, 20 + day, random(3) === 0 ? 0 : random(24), random(3) === 0 ? 0 : random(60));
    const homes = Array.from({ length: 300 }, (_, i) => {
      const start = random(40);
      const home = windowHome(`h${i}`, 0, 0, random(4) === 0 ? at(random(50)) : undefined);
      home.house_check = random(6) !== 0;
      home.house_check_start_date = pbDate(new Date(2026, 9, 20 + start, random(24)));
      // Now and then an end before the start: never due.
      home.house_check_end_date = pbDate(new Date(2026, 9, 20 + start + random(12) - 1, random(24)));
      return home;
    });
    const checks = new Map(homes.map((home) => [home.id, Array.from({ length: random(4) }, () => at(random(50)))]));
    const [from, to] = [new Date(2026, 9, 25), new Date(2026, 10, 30)];
    const days = houseChecksByDay(homes, checks, from, to);
    expect(days).toHaveLength(37);
    for (const { day, due, done } of days) {
      let expectedDue = 0;
      let expectedDone = 0;
      for (const home of homes) {
        const times = [...checks.get(home.id)!];
        if (home.house_check_last_date) times.push(new Date(home.house_check_last_date.replace(' ', 'T')));
        if (!isHouseCheckDueOn(home, day, times)) continue;
        expectedDue++;
        if (times.some((t) => isSameDay(t, day))) expectedDone++;
      }
      expect([day, due, done]).toEqual([day, expectedDue, expectedDone]);
    }
    expect(days.some((d) => d.done > 0) && days.some((d) => d.due > d.done)).toBe(true);
  });
});

describe('house checks done against due in a period', () => {
  it('stops at today: days to come are not due yet', () => {
    const homes = [windowHome('a', 1, 30)];
    const figures = houseCheckFigures(homes, [], NOV.from, NOV.to, d(5, 10));
    expect(figures.days).toHaveLength(5);
    expect([figures.due, figures.done]).toEqual([5, 0]);
  });

  it('uses the check reports of the home (only house checks) and reads from the earliest window start', () => {
    const homes = [windowHome('a', 1, 30), windowHome('b', 20, 30)];
    const reports = [report(3, 'house_check', 'a'), report(4, 'loud_noise', 'b'), report(21, 'house_check', 'b')];
    const figures = houseCheckFigures(homes, reports, NOV.from, NOV.to, d(30));
    // a: due 1st–3rd, done on the 3rd; b: due 20th–21st, done on the 21st.
    expect([figures.due, figures.done]).toEqual([5, 2]);
    const oct = windowHome('c', 1, 30);
    oct.house_check_start_date = pbDate(d(25, 0, 9));
    expect(checksSince([...homes, oct], NOV.from, NOV.to)).toEqual(d(25, 0, 9));
    expect(checksSince(homes, NOV.from, NOV.to)).toEqual(NOV.from);
  });
});

describe('reports', () => {
  it('by type: every type, most first, labels of REPORT_TYPES', () => {
    const rows = reportsByType([report(2), report(3), report(3, 'vehicle_tailgaite'), report(4, 'house_check')]);
    expect(rows.slice(0, 3)).toEqual([
      { key: 'loud_noise', label: 'Loud noise', count: 2 },
      { key: 'house_check', label: 'House check', count: 1 },
      { key: 'vehicle_tailgaite', label: 'Vehicle tailgate', count: 1 },
    ]);
    expect(rows).toHaveLength(14);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(4);
  });

  it('by week: Monday weeks clipped to the period', () => {
    const weeks = reportsByWeek(
      [report(1), report(2, 'loud_noise', 'h1', 0), report(8, 'x', 'h1', 23), report(30)],
      NOV.from,
      NOV.to,
    );
    expect(weeks.map((w) => [w.label, w.count])).toEqual([
      ['Nov 1', 1],
      ['Nov 2–8', 2],
      ['Nov 9–15', 0],
      ['Nov 16–22', 0],
      ['Nov 23–29', 0],
      ['Nov 30', 1],
    ]);
  });

  it('the ten homes with the most reports, ties by address, reports without a home left out', () => {
    const houses = new Map(
      Array.from({ length: 12 }, (_, i) => [`h${i}`, { address: `${i + 1} Egret Way`, apt: i === 0 ? 'Unit 2' : '' }]),
    );
    const reports = [
      ...Array.from({ length: 12 }, (_, i) => report(3, 'loud_noise', `h${i}`)),
      report(4, 'loud_noise', 'h11'),
      report(4, 'loud_noise', 'h11'),
      report(5, 'loud_noise', 'h0'),
      report(6, 'loud_noise', ''),
    ];
    const top = topHomes(reports, houses);
    expect(top).toHaveLength(10);
    expect(top.slice(0, 4).map((h) => [h.label, h.count])).toEqual([
      ['12 Egret Way', 3],
      ['1 Egret Way, Unit 2', 2],
      ['2 Egret Way', 1],
      ['3 Egret Way', 1],
    ]);
  });
});

describe('calls by outcome', () => {
  it('the five outcomes always, in progress and no outcome only when there are such calls', () => {
    expect(callsByOutcome([call('answered'), call('answered'), call('busy')]).map((r) => [r.label, r.count])).toEqual([
      ['Answered', 2],
      ['Voicemail', 0],
      ['Busy', 1],
      ['No answer', 0],
      ['Failed', 0],
    ]);
    const rows = callsByOutcome([call('', 'waiting'), call('', ''), call('no_answer')]);
    expect(rows.map((r) => [r.key, r.count]).slice(3)).toEqual([
      ['no_answer', 1],
      ['failed', 0],
      ['in_progress', 1],
      ['unknown', 1],
    ]);
  });
});

describe('all figures', () => {
  it('leave out records outside the period', () => {
    const figures = dashboardFigures({
      ...NOV,
      now: d(30),
      reports: [report(2), report(31, 'loud_noise', 'h1', 12 /* Dec 1 */), report(15, 'house_check')],
      calls: [call('voicemail'), call('failed', 'done', 31)],
      homes: [],
      checkReports: [],
    });
    expect(figures.total).toBe(2);
    expect(figures.byWeek.reduce((sum, w) => sum + w.count, 0)).toBe(2);
    expect(figures.callTotal).toBe(1);
    expect(figures.calls.find((c) => c.key === 'voicemail')?.count).toBe(1);
    expect(figures.topHomes).toEqual([{ key: 'h1', houseId: 'h1', label: 'N/A', count: 2 }]);
  });
});

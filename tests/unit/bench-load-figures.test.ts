/**
 * The figures of `npm run bench:load` (tests/bench/load-figures.ts): the
 * plan of a stage, percentiles, CPU from /proc, the saturation verdict and
 * the table, without starting a server.
 */
import { describe, expect, test } from 'vitest';
import {
  cpuBoundOfficers,
  cpuPercent,
  cpuTicks,
  KINDS,
  parseOfficers,
  percentile,
  rssMiB,
  saturation,
  stagePlan,
  table,
  verdict,
  type Kind,
  type KindFigures,
  type StageFigures,
} from '../bench/load-figures.ts';

function stage(officers: number, patch: Partial<StageFigures> = {}, kind: Partial<KindFigures> = {}): StageFigures {
  const kinds = Object.fromEntries(
    KINDS.map((k) => [k, { count: 10, p50: 20, p99: 80, errors: 0, ...kind }]),
  ) as Record<Kind, KindFigures>;
  return {
    officers,
    planned: 100,
    completed: 100,
    plannedSeconds: 10,
    seconds: 10,
    kinds,
    delivery: { events: 1000, p50: 30, p99: 120 },
    serverCpu: 40,
    serverRssMiB: 180.4,
    benchCpu: 12,
    load1: 1.5,
    ...patch,
  };
}

describe('the stage plan', () => {
  test('rates follow the officers: a pull of 3 requests a minute each, house checks every 2 min, reports every 5, calls every 15', () => {
    const plan = stagePlan(300, 30);
    expect(plan.pull.rate).toBeCloseTo(15);
    expect(plan.pull.amount).toBe(450);
    expect(plan.pull.overallRate).toBe(15);
    expect(plan.houseCheck.rate).toBeCloseTo(2.5);
    expect(plan.houseCheck.amount).toBe(75);
    expect(plan.report.rate).toBeCloseTo(1);
    expect(plan.report.amount).toBe(30);
    expect(plan.call.rate).toBeCloseTo(1 / 3);
    expect(plan.call.amount).toBe(10);
  });

  test('a few officers still send a few of each (a latency needs samples), at least 1 request a second', () => {
    const plan = stagePlan(5, 30);
    expect(plan.report.amount).toBe(3);
    expect(plan.call.amount).toBe(2);
    expect(plan.report.overallRate).toBe(1);
    expect(plan.pull.connections).toBeLessThanOrEqual(5);
  });

  test('connections never exceed the officers, the rate, or 50', () => {
    expect(stagePlan(500, 30).pull.connections).toBe(25);
    expect(stagePlan(2000, 30).pull.connections).toBe(50);
    expect(stagePlan(500, 30).call.connections).toBe(1);
    expect(stagePlan(2, 30).pull.connections).toBe(1);
  });
});

describe('--officers', () => {
  test('whole numbers, sorted, without repeats', () => {
    expect(parseOfficers('100, 25,100')).toEqual([25, 100]);
    expect(parseOfficers('7')).toEqual([7]);
  });
  test.each(['', '25,', '0', '-5', '2.5', 'ten', '25;100'])('refuses %j', (text) => {
    expect(() => parseOfficers(text)).toThrow(/--officers takes whole numbers/);
  });
});

describe('percentile', () => {
  test('nearest rank, unsorted input left alone', () => {
    const values = [50, 10, 40, 20, 30];
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 99)).toBe(50);
    expect(percentile(values, 0)).toBe(10);
    expect(values).toEqual([50, 10, 40, 20, 30]);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
  });
  test('none: NaN', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('CPU from /proc', () => {
  // A real line's shape; the command name holds a space and a parenthesis.
  const stat = '4242 (pocket base) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 567 0 0 20 0 12 0 100 0 0';
  test('user plus system ticks, whatever the command name holds', () => {
    expect(cpuTicks(stat)).toBe(1234 + 567);
    expect(cpuTicks(stat.replace('(pocket base)', '(a) b) c)'))).toBe(1801);
  });
  test('not a stat line: refused', () => {
    expect(() => cpuTicks('nothing here')).toThrow(/not a \/proc/);
  });
  test('resident memory from /proc/<pid>/status', () => {
    expect(rssMiB('Name:\tpocketbase\nVmPeak:\t  900000 kB\nVmRSS:\t  204800 kB\nThreads:\t12\n')).toBe(200);
    expect(() => rssMiB('Name:\tpocketbase\n')).toThrow(/no VmRSS/);
  });
  test('percent of one core over the elapsed time', () => {
    expect(cpuPercent(1000, 1150, 1000)).toBeCloseTo(150);
    expect(cpuPercent(0, 400, 2000)).toBeCloseTo(200);
  });
});

describe('saturation', () => {
  test('a stage that served its plan quickly and without errors held', () => {
    expect(saturation(stage(25))).toEqual([]);
  });
  test('requests not served in time, errors, a slow p99 or late realtime events each count', () => {
    expect(saturation(stage(25, { completed: 80 }))[0]).toMatch(/served 80 of 100/);
    expect(saturation(stage(25, { seconds: 12 }))).toEqual([]);
    expect(saturation(stage(25, { seconds: 18 }))).toEqual(['18 s to send 10 s of requests']);
    expect(saturation(stage(25, {}, { errors: 3 }))[0]).toMatch(/15 errors/);
    expect(saturation(stage(25, {}, { p99: 1500 }))).toContain('create report p99 1500 ms');
    expect(saturation(stage(25, { delivery: { events: 1, p50: 10, p99: 7000 } }))[0]).toMatch(/7\.0 s late/);
  });
  test('a slow realtime connect alone does not (a shift starting is a one-off)', () => {
    const s = stage(25);
    s.kinds.realtime.p99 = 4000;
    expect(saturation(s)).toEqual([]);
  });
  test('the verdict names the last N that held and the first that did not', () => {
    const stages = [stage(25), stage(100), stage(250, { completed: 50 }), stage(500, { completed: 20 })];
    expect(verdict(stages)).toBe('Held at 100 officers; saturates at 250 officers: served 50 of 100 requests planned.');
    expect(verdict([stage(25, { completed: 1 })])).toMatch(/^Saturates at 25 officers/);
    expect(verdict([stage(25), stage(100)])).toBe('No saturation up to 100 officers.');
  });
  test('the CPU bound: from the largest stage, linearly, to 80 % of every core', () => {
    expect(cpuBoundOfficers([stage(25, { serverCpu: 10 }), stage(100, { serverCpu: 40 })], 2)).toBe(400);
    expect(cpuBoundOfficers([stage(25, { serverCpu: null })], 2)).toBeNull();
  });
});

describe('the table', () => {
  test('one row per N with rate, latencies per kind, errors and CPU', () => {
    const text = table([stage(25), stage(100, { serverCpu: null, completed: 90, seconds: 15 }, { errors: 1 })]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('| Officers | Requests/s | pull (one of its requests) p50 / p99 ms |');
    expect(lines[0]).toContain('realtime connect p50 / p99 ms');
    expect(lines[2]).toBe(
      '| 25 | 10.0 of 10.0 | 20 / 80 | 20 / 80 | 20 / 80 | 20 / 80 | 20 / 80 | 30 / 120 | 0 | 40 % | 180 MiB | 12 % | 1.50 |',
    );
    expect(lines[3]).toMatch(/^\| 100 \| 6\.0 of 10\.0 \|.*\| 5 \| n\/a \| 180 MiB \| 12 % \| 1\.50 \|$/);
  });
  test('no samples: a dash, not NaN; small figures keep a decimal', () => {
    const text = table([stage(5, {}, { p50: NaN, p99: 4.25 })]);
    expect(text).toContain('— / 4.3');
    expect(text).not.toContain('NaN');
  });
});

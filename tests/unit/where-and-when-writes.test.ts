/**
 * Where and when on the way out: a queued report or house check
 * carries the device's position (or null) and, as `logged_at`, the very
 * device time its outbox entry keeps; the mirror shows both at once.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { queueHouseCheck } from '../../src/data/resources/houseChecks.ts';
import { queueReport } from '../../src/data/resources/reports.ts';
import { pbDate } from '../../src/domain/pbDate.ts';

const user = { id: 'officer00000001', community: 'community000001' };
const HERE = { latitude: 26.70512, longitude: -80.03641, accuracy: 12 };
let db: ScmsDatabase;

beforeEach(async () => {
  db = new ScmsDatabase(`where-when-${Math.random()}`);
  await db.open();
});

afterEach(async () => {
  db.close();
  await db.delete();
});

test('a house check: position and device time on the report, the time the same as the entry’s and the last-checked date', async () => {
  const at = new Date('2026-11-24T02:14:00.000Z');
  const id = await queueHouseCheck(
    db,
    user,
    { id: 'house0000000001', address: '9 Heron Ln' },
    {
      everythingOk: true,
      position: HERE,
    },
    at,
  );
  const [entry] = await db.outbox.toArray();
  const report = entry!.ops.find((op) => op.collection === 'reports')!;
  expect(report.body.position).toEqual(HERE);
  expect(report.body.logged_at).toBe(pbDate(new Date(entry!.createdAt)));
  expect(report.body.logged_at).toBe(pbDate(at));
  expect(entry!.ops.find((op) => op.collection === 'houses')!.body.house_check_last_date).toBe(pbDate(at));
  // The mirror shows it at once, made and (for now) created at the same moment.
  const row = await db.reports.get(id);
  expect(row?.position).toEqual(HERE);
  expect(row?.logged_at).toBe(row?.created);
});

test('a report without a position sends null, never a made-up one', async () => {
  const at = new Date('2026-11-24T03:00:00.000Z');
  const id = await queueReport(
    db,
    user,
    { type: 'loud_noise', weather: 'clear', incidentTime: at, narative: 'Music after 11 pm.' },
    'Report',
    at,
  );
  const [entry] = await db.outbox.toArray();
  expect(entry!.ops[0]!.body.position).toBeNull();
  expect(entry!.ops[0]!.body.logged_at).toBe(pbDate(at));
  expect(entry!.createdAt).toBe(at.toISOString());
  expect((await db.reports.get(id))?.position).toBeNull();
});

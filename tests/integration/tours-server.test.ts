/**
 * Checkpoint tours on a real PocketBase: what the server adds to the API
 * rules (pocketbase/pb_hooks/lib/tours.js). A checkpoint's codes are the
 * server's and never change; a scan is accepted only with its checkpoint's
 * own code, read or typed, and the server works out where it was made; a
 * scan arrives once; a walk ends once; deletes that would lose a patrol's
 * history are refused with a reason. Who may do what is rules-crud's; bad
 * input is bad-input's.
 */
import type PocketBase from 'pocketbase';
import { ClientResponseError } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isShortCode, isToken, qrText, SCAN_MESSAGES, shortCodeText } from '../../src/domain/checkpointCode.ts';
import { roundsBoard, type BoardScan, type BoardTour, type BoardWalk } from '../../src/domain/tourBoard.ts';
import { newId, startTestServer, type TestServer } from '../support/pocketbase.ts';
import { buildWorld, CHECKPOINT_POSITION, valid, type World } from '../support/rules-table.ts';

let t: TestServer;
let w: World;
let manager: PocketBase;
let regular: PocketBase;

beforeAll(async () => {
  t = await startTestServer();
  await t.admin.settings.update({ rateLimits: { enabled: false } });
  w = await buildWorld(t);
  manager = w.pb['manager A'];
  regular = w.pb['regular A'];
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

/** The status and the field errors a refused request answered with. */
async function refusal(
  request: Promise<unknown>,
): Promise<{ status: number; message: string; data: Record<string, { message: string }> }> {
  try {
    await request;
  } catch (error) {
    if (error instanceof ClientResponseError)
      return {
        status: error.status,
        message: String(error.response?.message ?? ''),
        data: (error.response?.data ?? {}) as Record<string, { message: string }>,
      };
    throw error;
  }
  throw new Error('The request was accepted.');
}

async function newCheckpoint(extra: Record<string, unknown> = {}) {
  return manager.collection('checkpoints').create({ ...valid(w, 'checkpoints', 'manager A'), ...extra });
}

describe("a checkpoint's codes", () => {
  test('are made by the server, whatever the request sent, and kept by every change', async () => {
    const made = await newCheckpoint({ token: 'a'.repeat(20), short_code: 'AAAAAA' });
    expect(isToken(made.token)).toBe(true);
    expect(made.token).not.toBe('a'.repeat(20));
    expect(isShortCode(made.short_code)).toBe(true);
    expect(made.short_code).not.toBe('AAAAAA');
    const changed = await manager
      .collection('checkpoints')
      .update(made.id, { name: 'Pool gate (north)', token: 'b'.repeat(20), short_code: 'BBBBBB' });
    expect(changed.name).toBe('Pool gate (north)');
    expect([changed.token, changed.short_code]).toEqual([made.token, made.short_code]);
  });

  test('differ from checkpoint to checkpoint', async () => {
    const made = await Promise.all(Array.from({ length: 25 }, () => newCheckpoint()));
    expect(new Set(made.map((c) => c.token)).size).toBe(25);
    expect(new Set(made.map((c) => c.short_code)).size).toBe(25);
  });
});

describe('a scan', () => {
  const scanBody = (extra: Record<string, unknown>) => ({
    id: newId(),
    ...valid(w, 'checkpoint_scans', 'regular A'),
    ...extra,
  });

  test("is accepted with its checkpoint's QR text, or its short code typed as people type it", async () => {
    const checkpoint = await t.admin.collection('checkpoints').getOne(w.seed.checkpointA);
    const camera = await regular
      .collection('checkpoint_scans')
      .create(scanBody({ method: 'camera', code: qrText(w.a.community.id, checkpoint.token) }));
    expect(camera.method).toBe('camera');
    const typed = shortCodeText(checkpoint.short_code).toLowerCase().replace('-', ' - ');
    const byCode = await regular.collection('checkpoint_scans').create(scanBody({ method: 'code', code: typed }));
    expect(byCode.method).toBe('code');
    // The code is checked, never kept.
    expect(byCode).not.toHaveProperty('code');
  });

  test("is refused with another checkpoint's short code, saying so", async () => {
    const other = await newCheckpoint();
    const answer = await refusal(
      regular.collection('checkpoint_scans').create(scanBody({ method: 'code', code: other.short_code })),
    );
    expect(answer.status).toBe(400);
    expect(answer.data.code?.message).toBe(SCAN_MESSAGES.noSuchCheckpoint);
  });

  test("is refused with a QR text of another community's checkpoint", async () => {
    const foreign = await t.admin.collection('checkpoints').getOne(w.seed.checkpointB);
    const answer = await refusal(
      regular
        .collection('checkpoint_scans')
        .create(scanBody({ method: 'camera', code: qrText(w.b.community.id, foreign.token) })),
    );
    expect(answer.status).toBe(400);
    expect(answer.data.code?.message).toBe(SCAN_MESSAGES.otherCommunity);
  });

  test('is placed by the server: inside the radius, how far outside, or unknown without a position', async () => {
    const north = (metres: number) => ({
      ...CHECKPOINT_POSITION,
      latitude: CHECKPOINT_POSITION.latitude + metres / 111_195,
      accuracy: 5,
    });
    const at = await regular.collection('checkpoint_scans').create(scanBody({ position: north(10) }));
    expect([at.place, at.distance]).toEqual(['inside', 10]);
    // What the request said of the place is not what is kept.
    const far = await regular
      .collection('checkpoint_scans')
      .create(scanBody({ position: north(240), place: 'inside', distance: 0 }));
    expect([far.place, far.distance]).toEqual(['outside', 240]);
    const none = await regular.collection('checkpoint_scans').create(scanBody({ position: null }));
    expect(none.place).toBe('unknown');
  });

  test('arrives once: the same scan sent again is refused and stored once', async () => {
    const body = scanBody({});
    await regular.collection('checkpoint_scans').create(body);
    const again = await refusal(regular.collection('checkpoint_scans').create(body));
    expect(again.status).toBe(400);
    const stored = await t.admin
      .collection('checkpoint_scans')
      .getList(1, 5, { filter: t.admin.filter('id = {:id}', { id: body.id }) });
    expect(stored.totalItems).toBe(1);
  });
});

describe('a walk', () => {
  test('is ended once, by its officer, with a reason', async () => {
    const walk = await regular.collection('tour_walks').create({ id: newId(), ...valid(w, 'tour_walks', 'regular A') });
    expect(walk.ended_at).toBe('');
    const ended = await regular
      .collection('tour_walks')
      .update(walk.id, { ended_at: '2026-11-26 01:40:00.000Z', end_reason: 'Gate blocked by a delivery truck' });
    expect(ended.end_reason).toBe('Gate blocked by a delivery truck');
    const again = await refusal(
      regular.collection('tour_walks').update(walk.id, { ended_at: '2026-11-26 01:50:00.000Z', end_reason: 'x' }),
    );
    expect(again.status).toBe(404);
    const stored = await t.admin.collection('tour_walks').getOne(walk.id);
    expect(stored.ended_at).toBe('2026-11-26 01:40:00.000Z');
  });
});

describe('deletes that would lose history', () => {
  test('a scanned checkpoint stays, with the reason', async () => {
    const answer = await refusal(manager.collection('checkpoints').delete(w.seed.checkpointA));
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/was scanned \d+ time\(s\) and cannot be deleted: take it off its tours instead/);
    await expect(t.admin.collection('checkpoints').getOne(w.seed.checkpointA)).resolves.toBeTruthy();
  });

  test('the only checkpoint of a tour stays until the tour changes', async () => {
    const lone = await newCheckpoint();
    const tour = await manager
      .collection('tours')
      .create({ ...valid(w, 'tours', 'manager A'), name: 'Lone', checkpoints: [lone.id] });
    const answer = await refusal(manager.collection('checkpoints').delete(lone.id));
    expect(answer.status).toBe(400);
    expect(answer.message).toBe('This checkpoint is the only one of the tour Lone: change or delete the tour first.');
    // One of two leaves the tour's list when it goes.
    const second = await newCheckpoint();
    await manager.collection('tours').update(tour.id, { checkpoints: [lone.id, second.id] });
    await manager.collection('checkpoints').delete(lone.id);
    expect((await t.admin.collection('tours').getOne(tour.id)).checkpoints).toEqual([second.id]);
  });

  test('a walked tour stays (it can be turned off)', async () => {
    const answer = await refusal(manager.collection('tours').delete(w.seed.tourA));
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/was walked \d+ time\(s\) and cannot be deleted: turn it off instead/);
    const off = await manager.collection('tours').update(w.seed.tourA, { active: false });
    expect(off.active).toBe(false);
  });
});

describe("the server's rounds of a day", () => {
  interface Answer {
    zone: string;
    rounds: Array<{
      tour: { id: string; name: string };
      startsAt: string;
      status: string;
      scanned: string[];
      missed: string[];
    }>;
  }
  const rounds = (pb: PocketBase, day: string) =>
    pb.send<Answer>('/api/scms/tour-rounds', { method: 'GET', query: { day }, requestKey: null });

  test("are the phone's: the same rule on the same records gives the same rounds", async () => {
    // Due again (a test above turned it off: a tour turned off shows only its walked rounds).
    await t.admin.collection('tours').update(w.seed.tourA, { active: true });
    const answer = await rounds(manager, '2026-11-25');
    const filter = t.admin.filter('community = {:c}', { c: w.a.community.id });
    const [tours, walks, scans] = await Promise.all([
      t.admin.collection('tours').getFullList<BoardTour>({ filter }),
      t.admin.collection('tour_walks').getFullList<BoardWalk>({ filter }),
      t.admin.collection('checkpoint_scans').getFullList<BoardScan>({ filter }),
    ]);
    const phone = roundsBoard(tours, walks, scans, {
      zone: answer.zone,
      now: Date.now(),
      day: Date.UTC(2026, 10, 25, 12),
    });
    const shown = (r: { tour: { id: string }; status: string; scanned: string[]; missed: string[] }, at: number) => [
      r.tour.id,
      new Date(at).toISOString(),
      r.status,
      r.scanned,
      r.missed,
    ];
    expect(answer.rounds.map((r) => shown(r, Date.parse(r.startsAt)))).toEqual(
      phone.map((r) =>
        shown(
          { ...r, status: r.outcome.status, scanned: r.outcome.scanned, missed: r.outcome.missed },
          r.round.startsAt,
        ),
      ),
    );
    // The seeded night, made today: of that night only the round walked shows (20:00 in New York, its one
    // checkpoint scanned at 20:05, on time); the others closed before the tour existed.
    const seeded = answer.rounds.filter((r) => r.tour.id === w.seed.tourA);
    expect(seeded.map((r) => [r.startsAt, r.status])).toEqual([['2026-11-26T01:00:00.000Z', 'on_time']]);
  });

  test("are only the asker's community's", async () => {
    const answer = await rounds(w.pb['director B'], '2026-11-25');
    expect(new Set(answer.rounds.map((r) => r.tour.id))).toEqual(new Set([w.seed.tourB]));
  });

  test('refuse a day that is no date, and anyone signed out', async () => {
    for (const day of ['', 'yesterday', '2026-02-30', '2026-11-25T00:00', '1999-12-31', '9999-01-01']) {
      const answer = await refusal(rounds(manager, day));
      expect([day, answer.status]).toEqual([day, 400]);
    }
    expect((await refusal(rounds(w.pb.anonymous, '2026-11-25'))).status).toBe(401);
  });
});

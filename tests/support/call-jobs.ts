/**
 * What the call-job tests share: a real PocketBase whose public
 * URL is its own address, talking to the telephony stand-in over real HTTP,
 * with a settings "minute" of one second (SCMS_CALL_MINUTE_SECONDS), and
 * helpers to make homes with phones, place calls and follow their jobs.
 */
import type { RecordModel } from 'pocketbase';
import { startTelephonyStandin, type TelephonyStandin } from '../../scripts/standins/telephony.ts';
import { createCommunity, startTestServerAt, type CommunityFixture, type TestServer } from './pocketbase.ts';

export const SID = 'AC' + '7e57ca11'.repeat(4);
export const TOKEN = 'call-jobs-auth-token';
export const FROM = '+15615550100';

export interface CallJobsWorld {
  t: TestServer;
  standin: TelephonyStandin;
  publicUrl: string;
  stop: () => Promise<void>;
}

export async function startCallJobsWorld(stepDelayMs = 60): Promise<CallJobsWorld> {
  const standin = await startTelephonyStandin({ accountSid: SID, authToken: TOKEN, stepDelayMs });
  let publicUrl = '';
  const t = await startTestServerAt((url) => {
    publicUrl = url;
    return {
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: FROM,
      TWILIO_API_BASE: standin.url,
      SCMS_PUBLIC_URL: publicUrl,
      SCMS_CALL_MINUTE_SECONDS: '1',
    };
  });
  return {
    t,
    standin,
    publicUrl,
    stop: async () => {
      await standin.stop();
      await t.stop();
    },
  };
}

/**
 * Quiet hours (UTC) from the hour `hoursAhead` of now's for `length` hours:
 * (12, 1) is certainly not now; (-1, 3) is now, ending an hour or more later.
 * Communities without saved settings have 21:00–08:00 New York time, so a
 * test that calls at any hour of the day saves settings away from now.
 */
export function quietHoursAway(hoursAhead: number, length: number) {
  const at = (h: number) => `${String((new Date().getUTCHours() + h + 24) % 24).padStart(2, '0')}:00`;
  return { quiet_start: at(hoursAhead), quiet_end: at(hoursAhead + length), time_zone: 'UTC' };
}

/** The default call settings with quiet hours away from now (see quietHoursAway). */
export function settingsAwayFromQuietHours(community: string) {
  return { community, retries: 2, retry_minutes: 5, text_fallback: false, ...quietHoursAway(12, 1) };
}

export interface Phone {
  number: string;
  type?: 'cell' | 'home' | 'business';
  primary?: boolean;
  doNotCall?: boolean;
}

export interface CommunityWithCalls {
  fixture: CommunityFixture;
  concernId: string;
  /** A home with these phones (created in this order). → house id */
  home: (address: string, phones: Phone[]) => Promise<string>;
  /** POST /api/scms/call-resident as the community's manager. */
  call: (
    houseId: string,
    extra?: Record<string, unknown>,
  ) => Promise<{ status: number; json: Record<string, unknown> }>;
}

export async function communityWithCalls(
  t: TestServer,
  slug: string,
  settings: Record<string, unknown> | null,
): Promise<CommunityWithCalls> {
  const fixture = await createCommunity(t.admin, slug, 'Palm Grove Estates');
  const concern = await t.admin.collection('concerns').create({
    name: 'Garage',
    hint: 'h',
    say: '<p>Your garage door is open.</p>',
    added_by: fixture.director.id,
    community: fixture.community.id,
  });
  if (settings) {
    const director = await t.signIn(fixture.director.email);
    await director.collection('call_settings').create({ community: fixture.community.id, ...settings });
  }
  const manager = await t.signIn(fixture.manager.email);
  return {
    fixture,
    concernId: concern.id,
    home: async (address, phones) => {
      const house = await t.admin
        .collection('houses')
        .create({ address, city: 'Jupiter', state: 'FL', zip: '33458', community: fixture.community.id });
      for (const p of phones) {
        await t.admin.collection('phones').create({
          phone_number: p.number,
          type: p.type ?? 'cell',
          primary: p.primary ?? false,
          do_not_call: p.doNotCall ?? false,
          house: house.id,
        });
      }
      return house.id;
    },
    call: async (houseId, extra = {}) => {
      const res = await fetch(`${t.url}/api/scms/call-resident`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: manager.authStore.token },
        body: JSON.stringify({
          h_id: houseId,
          concerns: [{ id: concern.id, name: 'Garage', selected: true }],
          ...extra,
        }),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
  };
}

/** POST /api/scms/call-jobs/run as superuser: dials what is due now. */
export async function runDue(t: TestServer): Promise<{ dialled: number; interrupted: number; recovered: number }> {
  const res = await fetch(`${t.url}/api/scms/call-jobs/run`, {
    method: 'POST',
    headers: { Authorization: t.admin.authStore.token },
  });
  if (res.status !== 200) throw new Error(`call-jobs/run answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { dialled: number; interrupted: number; recovered: number };
}

export const attemptsOf = (t: TestServer, callId: string): Promise<RecordModel[]> =>
  t.admin.collection('call_attempts').getFullList({ filter: `call = "${callId}"`, sort: 'sequence' });

/** Waits until the job is over, running due attempts (as the cron would) every `tickMs` when `tick` is set. */
export async function waitForJob(
  t: TestServer,
  callId: string,
  options: { tick?: boolean; timeoutMs?: number } = {},
): Promise<RecordModel> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  // At most one run a second: /api/scms/ routes share a rate limit.
  let lastRun = 0;
  for (;;) {
    const call = await t.admin.collection('calls').getOne(callId);
    if (call.progress === 'done') {
      // The final callback may still be settling its attempt.
      const attempts = await attemptsOf(t, callId);
      if (attempts.every((a) => a.state === 'ended' || a.state === 'skipped')) return call;
    }
    if (Date.now() > deadline)
      throw new Error(
        `call ${callId} did not end: ${JSON.stringify(call)} ${JSON.stringify(await attemptsOf(t, callId))}`,
      );
    if (options.tick && Date.now() - lastRun >= 1000) {
      lastRun = Date.now();
      await runDue(t);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The call once its text message is dealt with (`text_sent`: sent, or a
 * reason noted in `error`): the server ends a job first and sends the text
 * right after, in its own transaction, so a job seen done may not have it yet.
 */
export async function waitForText(t: TestServer, callId: string, timeoutMs = 20_000): Promise<RecordModel> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const call = await t.admin.collection('calls').getOne(callId);
    if (call.text_sent === true) return call;
    if (Date.now() > deadline) throw new Error(`no text message for call ${callId}: ${JSON.stringify(call)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The attempts in a word each: [to_number, state, outcome, acknowledged]. */
export async function attemptSummary(t: TestServer, callId: string): Promise<Array<[string, string, string, boolean]>> {
  return (await attemptsOf(t, callId)).map((a) => [
    a.to_number as string,
    a.state as string,
    a.outcome as string,
    a.acknowledged as boolean,
  ]);
}

/**
 * The demo's calls of the last three weeks, each over, with its attempts, as
 * the server's call jobs write them (pocketbase/pb_hooks/lib/call_jobs.js)
 * under the default call settings: an answered or voicemail call ends after
 * its dial; busy and no answer are tried again on the same number
 * `retries` times, `retryMinutes` apart, then on the home's next phone; a
 * dial the provider refuses ends the call as failed. So the dashboard's
 * calls chart, the home cards' 'Last call: …' and 'Call history' have
 * something to show from the first start.
 */
import { createHash } from 'node:crypto';
import type { CallOutcome } from '../../src/domain/callOutcome.ts';
import { composeScript } from '../../src/domain/callScript.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { zonedDayStart } from '../../src/domain/zonedTime.ts';
import type { BuiltHouse } from './build-homes.ts';
import type { CommunityPlan } from './communities.ts';
import type { DemoData, SeedRecord } from './demo-data.ts';
import { demoId } from './demo-ids.ts';
import { chance, int, pick, rngFor, type Rng } from './random.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** How far back the calls go. */
const DAYS = 20;

/** A provider call id (Twilio's 'CA' and 32 hex digits), derived from a stable key. */
function providerCallId(key: string): string {
  return `CA${createHash('sha256').update(`scms-demo:${key}`).digest('hex').slice(0, 32)}`;
}

/** How one dial ended: the provider's final status and what the job makes of it. */
interface Dial {
  outcome: CallOutcome;
  providerStatus: string;
  answeredBy: string;
  /** Seconds from the dial to the end; talk time for a call that was picked up. */
  rings: number;
  talk: number;
  acknowledged: boolean;
}

function dialOf(outcome: CallOutcome, rng: Rng): Dial {
  const none = { answeredBy: '', talk: 0, acknowledged: false };
  switch (outcome) {
    case 'answered':
      // The resident pressed 1 now and then.
      return {
        outcome,
        providerStatus: 'completed',
        answeredBy: 'human',
        rings: int(rng, 5, 15),
        talk: int(rng, 25, 70),
        acknowledged: chance(rng, 0.4),
      };
    case 'voicemail':
      return {
        outcome,
        providerStatus: 'completed',
        answeredBy: 'machine_end_beep',
        rings: int(rng, 15, 25),
        talk: int(rng, 20, 40),
        acknowledged: false,
      };
    case 'busy':
      return { outcome, providerStatus: 'busy', rings: int(rng, 2, 5), ...none };
    case 'no_answer':
      return { outcome, providerStatus: 'no-answer', rings: int(rng, 25, 32), ...none };
    case 'failed':
      return { outcome, providerStatus: '', rings: 1, ...none };
  }
}

/** The call's status as the provider's last status left it (recordStatus / dialClaimed). */
const CALL_STATUS: Record<CallOutcome, string> = {
  answered: 'completed',
  voicemail: 'completed',
  busy: 'busy',
  no_answer: 'no-answer',
  failed: 'failed',
};

const REFUSED = 'Provider error 21217: Phone number does not appear to be valid';

export function buildCalls(
  plan: CommunityPlan,
  communityId: string,
  now: Date,
  homes: BuiltHouse[],
  staff: SeedRecord[],
  data: DemoData,
): void {
  const rng = rngFor(`${plan.key}:calls`);
  const concerns = data.concerns.filter((c) => c.community === communityId);
  const last = plan.calls.length - 1;
  plan.calls.forEach(([index, outcome], k) => {
    const home = homes[index];
    if (!home || home.phones.length === 0) throw new Error(`${plan.key}: home ${index} has no phone to call`);
    // Oldest first, a day or two apart, in the daytime (outside the default quiet hours), the newest today.
    const day = last === 0 ? 0 : -Math.round((DAYS * (last - k)) / last);
    let at = zonedDayStart(plan.timeZone, now.getTime(), day) + int(rng, 9 * 60, 17 * 60) * MINUTE;
    // Today's call was placed a little while ago, never later than now.
    if (at > now.getTime() - 40 * MINUTE)
      at = Math.max(zonedDayStart(plan.timeZone, now.getTime()), now.getTime() - int(rng, 40, 90) * MINUTE);
    const never = (ms: number) => pbDate(new Date(Math.min(ms, now.getTime())));

    const callKey = `${plan.key}:call:${k}`;
    const callId = demoId(callKey);
    const count = int(rng, 1, 2);
    const first = int(rng, 0, concerns.length - count);
    const chosen = concerns.slice(first, first + count);
    // Dials: the first phone once for an answer, a voicemail or a refusal; every phone with its retries for busy and no answer.
    const retried = outcome === 'busy' || outcome === 'no_answer';
    const dials = retried
      ? home.phones.flatMap((phone) => Array.from({ length: 1 + DEFAULT_CALL_SETTINGS.retries }, () => phone))
      : [home.phones[0]!];
    let due = at;
    let lastNumber = '';
    let lastProviderId = '';
    let acknowledged = false;
    dials.forEach((phone, d) => {
      const dial = dialOf(outcome, rng);
      const sequence = d + 1;
      const providerId = outcome === 'failed' ? '' : providerCallId(`${callKey}:attempt:${sequence}`);
      const ended = due + (dial.rings + dial.talk) * SECOND;
      data.call_attempts.push({
        id: demoId(`${callKey}:attempt:${sequence}`),
        call: callId,
        house: home.record.id,
        community: communityId,
        sequence,
        phone: phone.id,
        to_number: String(phone.phone_number),
        phone_type: String(phone.type),
        state: 'ended',
        due_at: never(due),
        provider_call_id: providerId,
        provider_status: dial.providerStatus,
        answered_by: dial.answeredBy,
        started_at: dial.talk > 0 ? never(due + dial.rings * SECOND) : '',
        ended_at: never(ended),
        duration: dial.talk,
        outcome,
        acknowledged: dial.acknowledged,
        reason: outcome === 'failed' ? REFUSED : '',
        original_created: never(due),
      });
      lastNumber = String(phone.phone_number);
      lastProviderId = providerId;
      acknowledged = dial.acknowledged;
      // The same number again after the retry wait; the next phone at once.
      const samePhoneNext = dials[d + 1]?.id === phone.id;
      due = ended + (samePhoneNext ? DEFAULT_CALL_SETTINGS.retryMinutes * MINUTE : SECOND);
    });
    data.calls.push({
      id: callId,
      house: home.record.id,
      community: communityId,
      concerns: chosen.map((c) => c.id),
      to_number: lastNumber,
      script: composeScript(
        plan.name,
        chosen.map((c) => String(c.say)),
      ),
      status: CALL_STATUS[outcome],
      provider_call_id: lastProviderId,
      error: outcome === 'failed' ? REFUSED : '',
      created_by: pick(rng, staff).id,
      progress: 'done',
      outcome,
      acknowledged,
      text_sent: false,
      original_created: never(at),
    });
  });
}

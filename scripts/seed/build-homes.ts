/** Demo staff, and homes with their residents, phones and house checks. */
import { callOrder } from '../../src/domain/callHistory.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { zonedDayStart, zonedMonthStart } from '../../src/domain/zonedTime.ts';
import type { CheckKind, CommunityPlan } from './communities.ts';
import type { DemoData, SeedRecord } from './demo-data.ts';
import { demoId } from './demo-ids.ts';
import { STANDIN_NUMBERS } from '../standins/telephony/resource.ts';
import { chance, int, pick, rngFor, type Rng } from './random.ts';
import { CHECK_NOTES, FIRST_NAMES, HOME_NOTES, LAST_NAMES } from './word-lists.ts';

export interface BuiltHouse {
  record: SeedRecord;
  street: string;
  firstResident: SeedRecord;
  primaryPhone: string;
  /** The home's phones in the order a call tries them. */
  phones: SeedRecord[];
  /** When the home was checked in its house-check window; null when it was not. */
  checkedAt: Date | null;
}

export function buildStaff(plan: CommunityPlan, communityId: string): SeedRecord[] {
  return plan.staff.map((s) => ({
    id: demoId(`${plan.key}:user:${s.type}`),
    email: s.account.email,
    emailVisibility: true,
    verified: true,
    password: s.account.password,
    passwordConfirm: s.account.password,
    first_name: s.first,
    last_name: s.last,
    type: s.type,
    community: communityId,
  }));
}

const MINUTE = 60_000;

interface CheckPlan {
  fields: Record<string, string | boolean>;
  /** When the home was checked within its window (the report of the check is written then); null when not. */
  checkedAt: Date | null;
}

/**
 * The house-check fields of one situation, in the community's days: a
 * window runs from its first day's 00:00 to its last day's 23:59:59.999, as
 * the Update Home form saves it. A check is made in the daytime, and its
 * moment is both the home's last-checked date and its report's incident
 * time, as the House check dialog writes them.
 */
function checkPlan(kind: CheckKind | undefined, zone: string, now: Date, rng: Rng): CheckPlan {
  if (!kind) return { fields: { house_check: false }, checkedAt: null };
  const dayStart = (offset: number) => zonedDayStart(zone, now.getTime(), offset);
  const window = (from: number, to: number) => ({
    house_check: true,
    house_check_start_date: pbDate(new Date(dayStart(from))),
    house_check_end_date: pbDate(new Date(dayStart(to + 1) - 1)),
    house_check_note: pick(rng, CHECK_NOTES),
  });
  const daytime = (offset: number) => new Date(dayStart(offset) + int(rng, 7 * 60, 20 * 60) * MINUTE);
  const checked = (fields: Record<string, string | boolean>, at: Date): CheckPlan => ({
    fields: { ...fields, house_check_last_date: pbDate(at) },
    checkedAt: at,
  });
  switch (kind) {
    case 'due-never-checked':
      return { fields: window(-int(rng, 2, 5), int(rng, 2, 10)), checkedAt: null };
    case 'due-checked-before': {
      // Checked in an earlier window, before the two months of seeded reports: no report of it is kept.
      const before = zonedMonthStart(zone, now.getTime(), -1) - int(rng, 3, 12) * 24 * 60 * MINUTE;
      return {
        fields: { ...window(-2, int(rng, 3, 9)), house_check_last_date: pbDate(new Date(before)) },
        checkedAt: null,
      };
    }
    case 'checked-today': {
      const at = new Date(Math.max(dayStart(0), now.getTime() - 2 * 3600_000));
      at.setSeconds(0, 0);
      return checked(window(-3, 5), at);
    }
    case 'checked-earlier': {
      const start = -int(rng, 3, 6);
      return checked(window(start, int(rng, 2, 6)), daytime(-int(rng, 1, -start)));
    }
    case 'upcoming':
      return { fields: window(4, 14), checkedAt: null };
    case 'ended': {
      // Within the last four weeks: always inside the seeded history (it starts at last month's first day).
      const end = -int(rng, 2, 20);
      const start = end - int(rng, 3, 8);
      return checked(window(start, end), daytime(int(rng, start, end)));
    }
    case 'missed': {
      const end = -int(rng, 2, 15);
      return { fields: window(end - int(rng, 2, 5), end), checkedAt: null };
    }
  }
}

/**
 * Homes whose primary phone is one of the telephony stand-in's numbers
 * (README, "Telephony stand-in"), so that a new user of `npm start` sees
 * every outcome of a call: by community key, home index → number.
 */
const SHOWCASE_PHONES: Record<string, Record<number, string>> = {
  pge: {
    6: STANDIN_NUMBERS.answers,
    7: STANDIN_NUMBERS.voicemail,
    8: STANDIN_NUMBERS.busy,
    10: STANDIN_NUMBERS.noAnswer,
    11: STANDIN_NUMBERS.invalid,
    12: STANDIN_NUMBERS.pressesOne,
    13: STANDIN_NUMBERS.busyThenAnswers,
  },
};

export function buildHomes(plan: CommunityPlan, communityId: string, now: Date, data: DemoData): BuiltHouse[] {
  const rng = rngFor(`${plan.key}:homes`);
  const phoneCounter = { next: 0 };
  const homes: BuiltHouse[] = [];
  for (let i = 0; i < plan.homes; i++) {
    const street = plan.streets[i % plan.streets.length]!;
    // Number ranges of successive rounds never overlap, so every address is unique.
    const number = 100 + Math.floor(i / plan.streets.length) * 12 + int(rng, 1, 10);
    const apt = plan.aptStreets.includes(street)
      ? street === 'Seagrape Ct'
        ? `Unit ${pick(rng, ['A', 'B', 'C'])}`
        : `Apt ${int(rng, 1, 3)}0${int(rng, 1, 8)}`
      : '';
    const id = demoId(`${plan.key}:house:${i}`);
    const check = checkPlan(plan.checks[i], plan.timeZone, now, rng);
    const house: SeedRecord = {
      id,
      address: `${number} ${street}`,
      apt,
      city: plan.city,
      state: 'FL',
      zip: pick(rng, plan.zips),
      member_number: `${plan.memberPrefix}-${1001 + i}`,
      security_code: chance(rng, 0.2) ? `${int(rng, 1000, 9999)}#` : String(int(rng, 1000, 99999)),
      note: chance(rng, 0.6) ? pick(rng, HOME_NOTES) : '',
      community: communityId,
      ...check.fields,
    };
    data.houses.push(house);

    const familyName = pick(rng, LAST_NAMES);
    const residents: SeedRecord[] = [];
    const residentCount = int(rng, 1, 3);
    for (let r = 0; r < residentCount; r++) {
      residents.push({
        id: demoId(`${plan.key}:house:${i}:resident:${r}`),
        first_name: pick(rng, FIRST_NAMES),
        // Mostly one family; now and then a partner or tenant with another name.
        last_name: r === 0 || chance(rng, 0.7) ? familyName : pick(rng, LAST_NAMES),
        owner: r === 0,
        house: id,
      });
    }
    data.residents.push(...residents);

    let primaryPhone = '';
    const phones: SeedRecord[] = [];
    if (!plan.noPhones.includes(i)) {
      const phoneCount = int(rng, 1, 2);
      for (let p = 0; p < phoneCount; p++) {
        // 555-0100..0199 is reserved for fiction, so no real line is ever called;
        // 0110..0199 for most homes, 0101..0107 for the showcase homes below.
        const showcase = p === 0 ? SHOWCASE_PHONES[plan.key]?.[i] : undefined;
        const number = showcase ?? `+1${plan.areaCode}55501${String(10 + (phoneCounter.next++ % 90))}`;
        if (p === 0) primaryPhone = number;
        phones.push({
          id: demoId(`${plan.key}:house:${i}:phone:${p}`),
          phone_number: number,
          primary: p === 0,
          type:
            p === 0 ? pick(rng, ['cell', 'cell', 'home'] as const) : pick(rng, ['cell', 'business', 'home'] as const),
          house: id,
        });
      }
      data.phones.push(...phones);
    }
    homes.push({
      record: house,
      street,
      firstResident: residents[0]!,
      primaryPhone,
      // Created together, so the server's order is the rank's, then the id's.
      phones: callOrder(
        phones.map((phone) => ({ ...phone, primary: phone.primary === true, type: String(phone.type), created: '' })),
      ),
      checkedAt: check.checkedAt,
    });
  }
  return homes;
}

/** Demo staff, and homes with their residents, phones and house checks. */
import { addDays, startOfDay } from 'date-fns';
import { pbDate } from '../../src/domain/pbDate.ts';
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
  checkDue: boolean;
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

/** The house-check fields of one situation; windows leave two days of slack so any time zone agrees. */
function checkFields(kind: CheckKind | undefined, now: Date, rng: Rng): Record<string, string | boolean> {
  if (!kind) return { house_check: false };
  const today = startOfDay(now);
  const day = (offset: number) => pbDate(addDays(today, offset));
  const note = pick(rng, CHECK_NOTES);
  switch (kind) {
    case 'due-never-checked':
      return {
        house_check: true,
        house_check_start_date: day(-int(rng, 2, 5)),
        house_check_end_date: day(int(rng, 2, 10)),
        house_check_note: note,
      };
    case 'due-checked-before':
      // Last checked during an earlier window, before this one started.
      return {
        house_check: true,
        house_check_start_date: day(-2),
        house_check_end_date: day(int(rng, 3, 9)),
        house_check_last_date: day(-int(rng, 6, 12)),
        house_check_note: note,
      };
    case 'checked-today':
      return {
        house_check: true,
        house_check_start_date: day(-3),
        house_check_end_date: day(5),
        house_check_last_date: pbDate(new Date(Math.max(today.getTime(), now.getTime() - 2 * 3600_000))),
        house_check_note: note,
      };
    case 'upcoming':
      return {
        house_check: true,
        house_check_start_date: day(4),
        house_check_end_date: day(14),
        house_check_note: note,
      };
    case 'ended':
      return {
        house_check: true,
        house_check_start_date: day(-20),
        house_check_end_date: day(-9),
        house_check_last_date: day(-12),
        house_check_note: note,
      };
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
      ...checkFields(plan.checks[i], now, rng),
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
    if (!plan.noPhones.includes(i)) {
      const phoneCount = int(rng, 1, 2);
      for (let p = 0; p < phoneCount; p++) {
        // 555-0100..0199 is reserved for fiction, so no real line is ever called;
        // 0110..0199 for most homes, 0101..0107 for the showcase homes below.
        const showcase = p === 0 ? SHOWCASE_PHONES[plan.key]?.[i] : undefined;
        const number = showcase ?? `+1${plan.areaCode}55501${String(10 + (phoneCounter.next++ % 90))}`;
        if (p === 0) primaryPhone = number;
        data.phones.push({
          id: demoId(`${plan.key}:house:${i}:phone:${p}`),
          phone_number: number,
          primary: p === 0,
          type:
            p === 0 ? pick(rng, ['cell', 'cell', 'home'] as const) : pick(rng, ['cell', 'business', 'home'] as const),
          house: id,
        });
      }
    }
    const kind = plan.checks[i];
    homes.push({
      record: house,
      street,
      firstResident: residents[0]!,
      primaryPhone,
      checkDue: kind === 'due-never-checked' || kind === 'due-checked-before',
    });
  }
  return homes;
}

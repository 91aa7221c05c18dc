/**
 * The benchmark's large community as plain records, built without touching
 * the server: at scale 1, 5,000 homes with 2 residents and 2 phones each,
 * 300 concerns, 20,000 reports over the last 24 months and 3 staff; at
 * scale N, N times the homes (with their people) and the reports.
 *
 * Deterministic for a given `generatedAt`, so the driver can rebuild the
 * same records (for its search queries and server-side changes) when the
 * seeded PocketBase folder comes from the cache.
 */
import { startOfMonth, subMonths } from 'date-fns';
import { mulberry32 } from '../../scripts/seed/random.ts';
import { recordIdFrom } from '../../src/domain/recordId.ts';
import { REPORT_TYPE_VALUES, WEATHER_VALUES } from '../../src/domain/reportTypes.ts';
import { composeScript } from '../../src/domain/callScript.ts';
import { pbDate } from '../../src/domain/pbDate.ts';
import { DEFAULT_CALL_SETTINGS } from '../../src/domain/quietHours.ts';
import { scheduleOf, type BoardTour } from '../../src/domain/tourBoard.ts';
import { roundsOfDay, type ScheduledRound } from '../../src/domain/tourRounds.ts';
import { zonedDayStart } from '../../src/domain/zonedTime.ts';

export interface BenchSizes {
  houses: number;
  residentsPerHouse: number;
  phonesPerHouse: number;
  concerns: number;
  reports: number;
  /** Calls placed in the year before seeding: about two per home, each with its script. */
  calls: number;
  months: number;
}

/** The community at a scale: homes and reports grow with it; concerns, staff and months do not. */
export function benchSizes(scale = 1): BenchSizes {
  return {
    houses: 5_000 * scale,
    residentsPerHouse: 2,
    phonesPerHouse: 2,
    concerns: 300,
    reports: 20_000 * scale,
    calls: 10_000 * scale,
    months: 24,
  };
}

/** Scale 1. */
export const SIZES = benchSizes(1);
export const STAFF_PASSWORD = 'bench-patrol-pass-123';

export type Row = { id: string } & Record<string, string | boolean | string[]>;

export interface BenchData {
  community: Row;
  /** director, manager, regular (bench:screens signs in as the manager: an officer's screens and the dashboard). */
  staff: Row[];
  concerns: Row[];
  houses: Row[];
  residents: Row[];
  phones: Row[];
  /** Oldest incident first: seeded in this order, so `updated` grows with incident time as in real use. */
  reports: Row[];
  /** Finished calls with their scripts and outcomes (the Homes cards say how the newest went). */
  calls: Row[];
  /** Start of the month 24 months back: the whole span of reports. */
  historyFrom: Date;
}

const STREETS = [
  'Royal Palm',
  'Heron',
  'Egret',
  'Pelican',
  'Mangrove',
  'Sea Grape',
  'Coral',
  'Sandpiper',
  'Osprey',
  'Manatee',
  'Banyan',
  'Cypress',
  'Hibiscus',
  'Jasmine',
  'Orchid',
  'Magnolia',
  'Tarpon',
  'Dolphin',
  'Seabreeze',
  'Lighthouse',
  'Marlin',
  'Sailfish',
  'Anchor',
  'Harbor',
  'Lagoon',
  'Cove',
  'Island',
  'Bayview',
  'Sunrise',
  'Sunset',
  'Gulfstream',
  'Palmetto',
  'Mahogany',
  'Gumbo Limbo',
  'Key Lime',
  'Flamingo',
  'Ibis',
  'Spoonbill',
  'Turtle',
  'Reef',
];
const SUFFIXES = ['Way', 'Drive', 'Court', 'Lane', 'Road', 'Circle', 'Terrace', 'Place'];
const CITIES = ['Jupiter', 'Tequesta', 'Juno Beach', 'Palm Beach Gardens', 'Wellington', 'Boca Raton'];
const ZIPS = ['33458', '33469', '33477', '33408', '33410', '33418', '33414', '33431', '33432', '33433'];
const FIRST = [
  'James',
  'Maria',
  'Robert',
  'Linda',
  'Michael',
  'Patricia',
  'David',
  'Susan',
  'Carlos',
  'Ana',
  'Wei',
  'Mei',
  'Ahmed',
  'Fatima',
  'John',
  'Grace',
];
const LAST = [
  'Smith',
  'Garcia',
  'Johnson',
  'Martinez',
  'Brown',
  'Lopez',
  'Davis',
  'Nguyen',
  'Wilson',
  'Chen',
  'Taylor',
  'Patel',
  'Moore',
  'Rivera',
  'Clark',
  'Lewis',
];
const WORDS = [
  'gate',
  'vehicle',
  'resident',
  'noise',
  'garage',
  'door',
  'light',
  'patrol',
  'officer',
  'observed',
  'called',
  'parked',
  'street',
  'visitor',
  'alarm',
  'checked',
  'secure',
  'window',
  'mailbox',
  'dog',
];

const YEAR_MS = 365 * 24 * 3600 * 1000;

export function buildBenchData(generatedAt: Date, scale = 1): BenchData {
  const sizes = benchSizes(scale);
  const rng = mulberry32(20_260_509);
  const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const id = () => recordIdFrom(rng);
  const sentence = (min: number, max: number) => Array.from({ length: int(min, max) }, () => pick(WORDS)).join(' ');
  const phone = () => `+1561${int(2_000_000, 9_999_999)}`;

  const community: Row = { id: id(), name: 'Bench Palms', address: '1 Bench Palms Way, Jupiter, FL' };
  const staff: Row[] = (['director', 'manager', 'regular'] as const).map((type) => ({
    id: id(),
    email: `${type}@bench.test`,
    emailVisibility: true,
    verified: true,
    password: STAFF_PASSWORD,
    passwordConfirm: STAFF_PASSWORD,
    first_name: type[0]!.toUpperCase() + type.slice(1),
    last_name: 'Bench',
    type,
    community: community.id,
  }));

  const concerns: Row[] = Array.from({ length: sizes.concerns }, (_, n) => ({
    id: id(),
    name: `Concern ${n + 1}: ${sentence(1, 3)}`,
    hint: sentence(4, 10),
    say: `Hello, this is community security. ${sentence(8, 20)}.`,
    added_by: staff[0]!.id,
    community: community.id,
  }));

  const houses: Row[] = [];
  const residents: Row[] = [];
  const phones: Row[] = [];
  for (let n = 0; n < sizes.houses; n++) {
    const house: Row = {
      id: id(),
      address: `${int(100, 19_999)} ${pick(STREETS)} ${pick(SUFFIXES)}`,
      apt: rng() < 0.15 ? `Apt ${int(1, 40)}` : '',
      city: pick(CITIES),
      state: 'FL',
      zip: pick(ZIPS),
      member_number: `SC${String(100_000 + n).padStart(6, '0')}`,
      security_code: String(int(1000, 9999)),
      note: rng() < 0.3 ? sentence(5, 20) : '',
      community: community.id,
    };
    houses.push(house);
    for (let r = 0; r < sizes.residentsPerHouse; r++) {
      residents.push({ id: id(), first_name: pick(FIRST), last_name: pick(LAST), owner: r === 0, house: house.id });
    }
    for (let p = 0; p < sizes.phonesPerHouse; p++) {
      phones.push({
        id: id(),
        phone_number: phone(),
        primary: p === 0,
        type: p === 0 ? 'cell' : 'home',
        house: house.id,
      });
    }
  }

  const historyFrom = startOfMonth(subMonths(generatedAt, sizes.months));
  const span = generatedAt.getTime() - historyFrom.getTime();
  const reports: Row[] = [];
  for (let n = 0; n < sizes.reports; n++) {
    // One report in seven is not about a home (gate, common areas).
    const houseIndex = rng() < 6 / 7 ? int(0, houses.length - 1) : -1;
    const house = houses[houseIndex];
    reports.push({
      id: id(),
      narative: `${sentence(15, 60)}.`,
      type: pick(REPORT_TYPE_VALUES),
      weather: pick(WEATHER_VALUES),
      incident_time: pbDate(new Date(historyFrom.getTime() + Math.floor(rng() * span))),
      phone_number: house ? (phones[houseIndex * sizes.phonesPerHouse]!.phone_number as string) : '',
      community: community.id,
      house: house?.id ?? '',
      resident: house && rng() < 0.5 ? residents[houseIndex * sizes.residentsPerHouse]!.id : '',
      created_by: pick(staff).id,
    });
  }
  reports.sort((a, b) => (a.incident_time as string).localeCompare(b.incident_time as string));

  // Drawn after everything else, so the homes and reports stay those of earlier seeds.
  const calls: Row[] = [];
  for (let n = 0; n < sizes.calls; n++) {
    const houseIndex = int(0, houses.length - 1);
    const chosen = Array.from({ length: int(1, 3) }, () => pick(concerns));
    const outcome = pick(['answered', 'answered', 'voicemail', 'no_answer', 'busy', 'failed'] as const);
    calls.push({
      id: id(),
      house: houses[houseIndex]!.id,
      community: community.id,
      concerns: chosen.map((concern) => concern.id),
      to_number: phones[houseIndex * sizes.phonesPerHouse]!.phone_number as string,
      script: composeScript(
        community.name as string,
        chosen.map((concern) => concern.say as string),
      ),
      status: outcome === 'failed' ? 'failed' : 'completed',
      progress: 'done',
      outcome,
      acknowledged: outcome === 'answered' && rng() < 0.5,
      created_by: pick(staff).id,
      // PocketBase sets `created` itself on create; the seed writes this one afterwards (seed.ts).
      created: pbDate(new Date(generatedAt.getTime() - Math.floor(rng() * YEAR_MS))),
    });
  }
  return { community, staff, concerns, houses, residents, phones, reports, calls, historyFrom };
}

/**
 * The 200 home searches: address words, house numbers, zips, member numbers,
 * and queries of one to three words mixing them, as officers type them.
 */
export function searchQueries(data: BenchData, count = 200): string[] {
  const rng = mulberry32(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const street = (h: Row) => (h.address as string).split(' ').slice(1);
  const kinds: Array<() => string> = [
    () => pick(street(pick(data.houses))).toLowerCase(), // a street word: "heron"
    () => (pick(data.houses).address as string).split(' ')[0]!, // a house number: "1234"
    () => pick(ZIPS), // a zip
    () => pick(data.houses).member_number as string, // a member number: one home
    () => {
      // two words of one address: "1234 heron"
      const words = (pick(data.houses).address as string).split(' ');
      return `${words[0]} ${words[1]}`;
    },
    () => {
      // three words: street, suffix and city of one home
      const h = pick(data.houses);
      return `${street(h).join(' ')} ${(h.city as string).split(' ')[0]}`.split(' ').slice(-3).join(' ');
    },
    () => `${pick(street(pick(data.houses)))} ${pick(ZIPS)}`, // street word + zip
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!());
}

// ---- checkpoint tours -------------------------------------------------------------

/**
 * A record of the tours' collections: beside texts, numbers (a radius) and
 * positions. The tours' history does not grow with the scale: a community of
 * 20,000 homes patrols the same grounds as one of 5,000, and what the Tours
 * screen shows (the shift under way) is the same at both.
 */
export type TourRow = { id: string } & Record<
  string,
  string | number | boolean | string[] | { latitude: number; longitude: number; accuracy: number } | null
>;

export interface BenchTours {
  /** 40 checkpoints, ten per tour. */
  checkpoints: TourRow[];
  /** Four tours; each one's `created` is a day before the history (PocketBase sets its own on create: seed.ts writes this one afterwards). */
  tours: TourRow[];
  /** Every round of the TOUR_DAYS before `generatedAt` that had closed by then, walked. */
  walks: TourRow[];
  /** Their scans: most checkpoints of each walk, some left (the walk ended early with a reason, or one skipped). */
  scans: TourRow[];
  /** The seed's moment (bench-meta.json's generatedAt): the history ends at it. */
  generatedAt: Date;
  /** The start of the history: TOUR_DAYS before generatedAt. */
  from: Date;
}

/** Days of walked rounds before the seed. */
export const TOUR_DAYS = 60;
/** The bench community saves no call settings: its tours run in the default zone, as the app reads them. */
export const TOUR_ZONE = DEFAULT_CALL_SETTINGS.timeZone;

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60_000;

/** Four tours of ten checkpoints each, every 60 to 120 minutes; the night patrol runs past midnight. */
const TOUR_PLANS = [
  { name: 'Night patrol', start: '20:00', end: '06:00', every_minutes: 60, round_minutes: 30, ordered: true },
  { name: 'Perimeter', start: '06:00', end: '18:00', every_minutes: 120, round_minutes: 45, ordered: true },
  { name: 'Amenities', start: '08:00', end: '22:00', every_minutes: 90, round_minutes: 30, ordered: false },
  { name: 'Gates and lots', start: '07:00', end: '19:00', every_minutes: 60, round_minutes: 40, ordered: false },
] as const;
const AREAS = ['North', 'South', 'East', 'West'];
const PLACES = [
  'gate',
  'pool gate',
  'clubhouse doors',
  'tennis courts',
  'parking lot',
  'mail kiosk',
  'playground',
  'lake path',
  'maintenance yard',
  'guest lot',
];
const END_REASONS = [
  "Called to a resident's door",
  'Gate blocked by a delivery truck',
  'Sticker missing, reported to the manager',
  'Sent to a noise complaint',
  'Heavy rain, path flooded',
];
/** Around the gatehouse of a community in Jupiter, Florida (as the demo's tours). */
const ORIGIN = { latitude: 26.9342, longitude: -80.0942 };
const PER_METRE = { latitude: 1 / 111_195, longitude: 1 / (111_195 * Math.cos((ORIGIN.latitude * Math.PI) / 180)) };
const near = (rng: () => number, at: { latitude: number; longitude: number }, metres: number, accuracy: number) => ({
  latitude: Number((at.latitude + (rng() - 0.5) * 2 * metres * PER_METRE.latitude).toFixed(6)),
  longitude: Number((at.longitude + (rng() - 0.5) * 2 * metres * PER_METRE.longitude).toFixed(6)),
  accuracy,
});

export interface TourRound {
  tour: TourRow;
  round: ScheduledRound;
}

/** When a round can no longer be walked (tourRounds.ts: its minutes once more after it was due). */
export const roundClosesAt = (round: ScheduledRound) => round.dueBy + (round.dueBy - round.startsAt);

/** Every round of the tours that starts from `fromMs` (included) to `toMs` (excluded), in time order. */
export function roundsBetween(tours: readonly TourRow[], fromMs: number, toMs: number): TourRound[] {
  const rounds: TourRound[] = [];
  for (const tour of tours) {
    const schedule = scheduleOf(tour as unknown as BoardTour);
    // From the day before (a night's rounds belong to the day it began), day by day in the zone, at noon.
    for (let day = zonedDayStart(TOUR_ZONE, fromMs, -1); day < toMs; day = zonedDayStart(TOUR_ZONE, day, 1)) {
      for (const round of roundsOfDay(schedule, TOUR_ZONE, day + DAY_MS / 2))
        if (round.startsAt >= fromMs && round.startsAt < toMs) rounds.push({ tour, round });
    }
  }
  return rounds.sort((a, b) => a.round.startsAt - b.round.startsAt);
}

/**
 * A walk of each round as officers walk them, as it stood at `now`: started
 * within minutes of the round's start (one in 25 late), a scan every 1 to
 * 2.2 minutes, in order on an ordered tour; one walk in 12 leaves
 * checkpoints (one skipped, or the last one to three) and ends with a
 * reason. A walk not yet started at `now` is not made; scans after `now`
 * are left out, and a walk whose end is after `now` is still open.
 */
export function walkRounds(
  rounds: readonly TourRound[],
  checkpoints: readonly TourRow[],
  staff: readonly Row[],
  now: number,
  seed: number,
): { walks: TourRow[]; scans: TourRow[] } {
  const rng = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const byId = new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint]));
  // Mostly the officer; the manager and the director walk some.
  const walkers = [...Array<Row>(7).fill(staff.find((s) => s.type === 'regular')!), staff[1]!, staff[1]!, staff[0]!];
  const walks: TourRow[] = [];
  const scans: TourRow[] = [];
  for (const { tour, round } of rounds) {
    const roundMs = round.dueBy - round.startsAt;
    let at = round.startsAt + (rng() < 0.04 ? roundMs * (0.8 + rng() * 0.4) : rng() * 6 * MINUTE_MS);
    if (at > now) continue;
    const officer = pick(walkers).id;
    const order = [...(tour.checkpoints as string[])];
    if (!tour.ordered && rng() < 0.3) {
      const i = int(0, order.length - 2);
      [order[i], order[i + 1]] = [order[i + 1]!, order[i]!];
    }
    const leaves = rng() < 1 / 12 ? (rng() < 0.5 ? 'one' : 'last') : null;
    const skipped = leaves === 'one' ? int(1, order.length - 2) : -1;
    const kept = leaves === 'last' ? order.length - int(1, 3) : order.length;
    const walk: TourRow = {
      id: recordIdFrom(rng),
      community: tour.community as string,
      tour: tour.id,
      officer,
      round_start: pbDate(new Date(round.startsAt)),
      started_at: pbDate(new Date(at)),
      ended_at: '',
      end_reason: '',
    };
    walks.push(walk);
    for (let i = 0; i < kept; i++) {
      if (i === skipped) continue;
      at += (1 + rng() * 1.2) * MINUTE_MS;
      if (at > now) break;
      const checkpoint = byId.get(order[i]!)!;
      scans.push({
        id: recordIdFrom(rng),
        community: tour.community as string,
        walk: walk.id,
        checkpoint: checkpoint.id,
        officer,
        scanned_at: pbDate(new Date(Math.floor(at))),
        method: rng() < 0.1 ? 'code' : 'camera',
        position: near(rng, checkpoint.position as { latitude: number; longitude: number }, 20, int(4, 15)),
        answer: checkpoint.question ? (rng() < 0.95 ? 'yes' : 'no') : '',
        note: rng() < 0.02 ? pick(END_REASONS) : '',
      });
    }
    const ended = at + (0.3 + rng() * 0.7) * MINUTE_MS;
    if (ended <= now) {
      walk.ended_at = pbDate(new Date(Math.floor(ended)));
      walk.end_reason = leaves ? pick(END_REASONS) : '';
    }
  }
  return { walks, scans };
}

/**
 * The community's checkpoint tours and TOUR_DAYS of their history before
 * `generatedAt` (about 2,460 walks and 24,000 scans). Drawn from a stream of
 * its own, so the homes, reports and calls stay those of earlier seeds.
 */
export function buildBenchTours(data: BenchData, generatedAt: Date): BenchTours {
  const rng = mulberry32(20_261_127);
  const director = data.staff[0]!;
  const community = data.community.id;
  const from = new Date(generatedAt.getTime() - TOUR_DAYS * DAY_MS);
  const checkpoints: TourRow[] = Array.from({ length: TOUR_PLANS.length * 10 }, (_, n) => {
    const place = PLACES[n % PLACES.length]!;
    return {
      id: recordIdFrom(rng),
      community,
      name: `${AREAS[Math.floor(n / PLACES.length)]} ${place}`,
      position: near(rng, ORIGIN, 800, 6),
      radius: 30,
      instructions: n % 3 === 0 ? `Check the ${place} is secure.` : '',
      question: n % 4 === 0 ? `Is the ${place} locked?` : '',
      created_by: director.id,
    };
  });
  const tours: TourRow[] = TOUR_PLANS.map((plan, t) => ({
    id: recordIdFrom(rng),
    community,
    ...plan,
    // Each tour walks ten checkpoints from every area.
    checkpoints: checkpoints.filter((_, n) => n % TOUR_PLANS.length === t).map((checkpoint) => checkpoint.id),
    active: true,
    created_by: director.id,
    created: pbDate(new Date(from.getTime() - DAY_MS)),
  }));
  // The rounds that had closed by the seed; those open then are the run's (topped up by bench:screens).
  const rounds = roundsBetween(tours, from.getTime(), generatedAt.getTime()).filter(
    ({ round }) => roundClosesAt(round) <= generatedAt.getTime(),
  );
  const { walks, scans } = walkRounds(rounds, checkpoints, data.staff, generatedAt.getTime(), 20_261_128);
  return { checkpoints, tours, walks, scans, generatedAt, from };
}

/**
 * The walks of the rounds after the seeded history, up to `now`, for a run
 * on a copy of a cached community (seeded days ago, perhaps): the rounds of
 * the last two days that the history does not hold, walked as it would
 * have been, the one under way perhaps still open. So the shift a run shows
 * has been walked, whenever in the month the community was seeded.
 */
export function recentTourWalks(
  tours: BenchTours,
  staff: readonly Row[],
  now: Date,
): { walks: TourRow[]; scans: TourRow[] } {
  const seeded = tours.generatedAt.getTime();
  const rounds = roundsBetween(
    tours.tours,
    Math.max(now.getTime() - 2 * DAY_MS, tours.from.getTime()),
    now.getTime() + 1,
  ).filter(({ round }) => roundClosesAt(round) > seeded);
  return walkRounds(rounds, tours.checkpoints, staff, now.getTime(), Math.floor(now.getTime() / MINUTE_MS));
}

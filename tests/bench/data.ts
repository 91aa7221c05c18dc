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

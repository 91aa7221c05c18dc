/**
 * The demo data as plain records, built without touching the server: two
 * communities (Palm Grove Estates, the demo one, and Harbor Pointe, there to
 * show that communities are isolated), their staff, homes with residents and
 * phones, concerns and two months of reports.
 *
 * Everything is deterministic: record ids are derived from stable keys (so a
 * second seed recognises what is already there) and the rest comes from a
 * seeded PRNG, so the same `now` always gives the same data. `now` only moves
 * dates (house-check windows, incident times and when each report was
 * written).
 */
import { createHash } from 'node:crypto';
import { addDays, format, startOfDay, startOfMonth, subMonths } from 'date-fns';
import { REPORT_TYPE_VALUES, type ReportType, type Weather } from '../../src/domain/reportTypes.ts';
import {
  DEMO_DIRECTOR,
  DEMO_MANAGER,
  DEMO_REGULAR,
  DEMO_SECOND_DIRECTOR,
  DEMO_SECOND_MANAGER,
  type DemoAccount,
} from './demo-account.ts';

/** Collections in the order they must be created (relations point backwards). */
export const SEED_ORDER = ['communities', 'users', 'houses', 'residents', 'phones', 'concerns', 'reports'] as const;
export type SeedCollection = (typeof SEED_ORDER)[number];
export type SeedRecord = { id: string } & Record<string, string | boolean>;
export type DemoData = Record<SeedCollection, SeedRecord[]>;

// ---- determinism --------------------------------------------------------------

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A PocketBase id (15 chars of [a-z0-9]) derived from a stable key. */
export function demoId(key: string): string {
  const digest = createHash('sha256').update(`scms-demo:${key}`).digest();
  let id = '';
  for (let i = 0; i < 15; i++) id += ID_ALPHABET[digest[i]! % ID_ALPHABET.length];
  return id;
}

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One independent random stream per purpose, so adding reports never reshuffles homes. */
function rngFor(key: string): () => number {
  return mulberry32(createHash('sha256').update(key).digest().readUInt32LE(0));
}

type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const chance = (rng: Rng, p: number) => rng() < p;
function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
function weighted<T>(rng: Rng, items: ReadonlyArray<readonly [T, number]>): T {
  let r = rng() * items.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/** PocketBase's date format, in UTC. */
const pbDate = (date: Date) => date.toISOString().replace('T', ' ');

// ---- communities -----------------------------------------------------------

interface StaffPlan {
  account: DemoAccount;
  type: 'director' | 'manager' | 'regular';
  first: string;
  last: string;
}

interface CommunityPlan {
  /** Prefix of every id key of this community. */
  key: string;
  name: string;
  address: string;
  city: string;
  zips: readonly string[];
  areaCode: string;
  memberPrefix: string;
  streets: readonly string[];
  /** Streets of villas or condos, whose homes carry an apt/unit. */
  aptStreets: readonly string[];
  homes: number;
  reports: number;
  concerns: number;
  staff: StaffPlan[];
  /** Home indexes (0-based) with no phone at all: the card shows 'Primary phone number missing'. */
  noPhones: readonly number[];
  /** House-check situations by home index. */
  checks: Readonly<Record<number, CheckKind>>;
}

type CheckKind = 'due-never-checked' | 'due-checked-before' | 'checked-today' | 'upcoming' | 'ended';

const COMMUNITIES: CommunityPlan[] = [
  {
    key: 'pge',
    name: 'Palm Grove Estates',
    address: '1000 Palm Grove Blvd, Jupiter, FL 33458',
    city: 'Jupiter',
    zips: ['33458', '33458', '33477', '33469'],
    areaCode: '561',
    memberPrefix: 'PGE',
    streets: ['Palm Grove Dr', 'Egret Way', 'Heron Cove Ln', 'Seagrape Ct', 'Banyan Cir', 'Pelican Point Dr', 'Sabal Palm Ter', 'Osprey Ln', 'Mangrove Bay Rd', 'Coral Tree Way'],
    aptStreets: ['Seagrape Ct', 'Coral Tree Way'],
    homes: 42,
    reports: 150,
    concerns: 10,
    staff: [
      { account: DEMO_DIRECTOR, type: 'director', first: 'Dana', last: 'Whitfield' },
      { account: DEMO_MANAGER, type: 'manager', first: 'Marcus', last: 'Bell' },
      { account: DEMO_REGULAR, type: 'regular', first: 'Luis', last: 'Ortega' },
    ],
    noPhones: [5, 17, 29, 38],
    checks: { 2: 'due-never-checked', 9: 'due-checked-before', 14: 'checked-today', 21: 'due-never-checked', 26: 'upcoming', 33: 'due-checked-before', 36: 'ended', 40: 'due-never-checked' },
  },
  {
    key: 'hpt',
    name: 'Harbor Pointe',
    address: '2200 SE Harbor Pointe Dr, Stuart, FL 34996',
    city: 'Stuart',
    zips: ['34996', '34994'],
    areaCode: '772',
    memberPrefix: 'HPT',
    streets: ['Harbor Pointe Dr', 'Anchor Ct', 'Marlin Way'],
    aptStreets: [],
    homes: 4,
    reports: 8,
    concerns: 3,
    staff: [
      { account: DEMO_SECOND_DIRECTOR, type: 'director', first: 'Karen', last: 'Lindqvist' },
      { account: DEMO_SECOND_MANAGER, type: 'manager', first: 'Andre', last: 'Mitchell' },
    ],
    noPhones: [],
    checks: { 1: 'due-never-checked' },
  },
];

/** Ids of the seeded communities, for callers that need to find them. */
export const DEMO_COMMUNITY_IDS = {
  primary: demoId('pge:community'),
  second: demoId('hpt:community'),
} as const;

// ---- word lists --------------------------------------------------------------

const FIRST_NAMES = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Patricia', 'David', 'Susan', 'Carlos', 'Jennifer', 'Thomas', 'Elena', 'Richard', 'Karen', 'Daniel', 'Nancy', 'Anthony', 'Lisa', 'Mark', 'Sandra', 'Steven', 'Donna', 'Paul', 'Carol', 'Kevin', 'Michelle', 'Brian', 'Diane', 'Gary', 'Rosa', 'Frank', 'Janet', 'Raymond', 'Gloria', 'Walter', 'Yolanda', 'Henry', 'Priya', 'Wei', 'Aisha'];
const LAST_NAMES = ['Anderson', 'Baker', 'Castillo', 'Delgado', 'Ellison', 'Fitzgerald', 'Goldberg', 'Hernandez', 'Iverson', 'Jacobs', 'Kowalski', 'Lombardi', 'McAllister', 'Nguyen', "O'Brien", 'Patel', 'Quintero', 'Rosen', 'Sullivan', 'Thompson', 'Underwood', 'Vasquez', 'Whitaker', 'Yamamoto', 'Zimmerman', 'Brennan', 'Caruso', 'Donovan', 'Esposito', 'Friedman', 'Greene', 'Haddad', 'Kaplan', 'Levine', 'Moreau', 'Novak', 'Ostrowski', 'Petrakis', 'Romano', 'Schultz'];

const HOME_NOTES = [
  'Owners are seasonal, back in November. Landscaper comes Tuesdays and Fridays.',
  'Large dog (friendly) in the backyard; do not open the side gate.',
  'Elderly resident lives alone. Daughter has a key and is the emergency contact.',
  'Pool service every Wednesday morning, a white van is expected.',
  'Spare key in the lockbox at the side door, code is with the gatehouse.',
  'Hurricane shutters stay up all season',
  'Resident uses a wheelchair; allow extra time to answer the door.',
  'Rental until June. Call the owner before entering the property.',
  'Cat indoors only',
  'Gate code on file',
];

const CHECK_NOTES = [
  'Owners in Michigan until April. Check front door, pool cage and garage side door.',
  'Traveling for two weeks. Please pick up any packages and flyers from the driveway.',
  'Check that the lanai screen door is latched; it blows open in the wind.',
  'Water is shut off at the main. Report any running water right away.',
  'House sitter comes Sundays only. Any other car in the driveway should be reported.',
];

const VEHICLES = ['white Toyota Camry', 'silver Honda Accord', 'black Ford F-150', 'gray Jeep Wrangler', 'blue Tesla Model 3', 'red Chevy Silverado', 'white Ram ProMaster van', 'green Subaru Outback', 'black BMW X5', 'tan Lexus RX'];

// ---- concerns ------------------------------------------------------------------

/** What residents really get called about; `say` is the middle of the spoken script. */
const CONCERNS: ReadonlyArray<{ name: string; hint: string; say: string }> = [
  { name: 'Gate left open', hint: 'Side, pool or backyard gate found open', say: 'Our patrol found a gate at your home open. Please close and latch it when you can, so pets and children stay safe. If you need help, call the gatehouse.' },
  { name: 'Package at the door', hint: 'Delivery left outside the front door', say: 'A package was left at your front door. Please bring it inside, or ask a neighbor to hold it, so it is not taken or damaged by the weather.' },
  { name: 'Garage door open', hint: 'Garage door open at night or while away', say: 'Your garage door is open. If you are not at home, please call the gatehouse and an officer can close it with the code on file.' },
  { name: 'Water leak', hint: 'Water running or leaking outside the home', say: 'Our officer saw water leaking outside your home. Please check your irrigation and outdoor pipes as soon as possible, or call the gatehouse so we can help shut the valve.' },
  { name: 'Car lights on', hint: 'Headlights or interior lights left on in a parked vehicle', say: 'The lights of a vehicle parked at your home were left on. Please turn them off so the battery does not run down.' },
  { name: 'Sprinklers running', hint: 'Irrigation running outside the watering schedule or in the rain', say: 'Your sprinklers are running outside the permitted watering schedule. Please check your irrigation timer.' },
  { name: 'Pet loose', hint: 'Dog or cat seen loose near the home', say: 'A pet that may belong to your household was seen loose near your home. Please check that your pets are safe inside, and call the gatehouse if you need help finding it.' },
  { name: 'Trash cans out', hint: 'Bins left at the curb after pickup day', say: 'Your trash cans are still at the curb after pickup day. Please bring them back out of view from the street, as the community rules require.' },
  { name: 'Door left open', hint: 'Front or back door found ajar', say: 'Our patrol found a door of your home left open. Please call the gatehouse right away, so an officer can check the home with you.' },
  { name: 'Suspicious vehicle', hint: 'Unknown vehicle parked at or near the home', say: 'An unknown vehicle has been parked at your home for some time. If you are not expecting anyone, please call the gatehouse so an officer can check on it.' },
];

// ---- report narratives ---------------------------------------------------------

/**
 * Narrative templates per report type: `raw` as an officer types it on a
 * phone (abbreviations, run-on sentences, so AI assist has work to do) and
 * `ai` as the assisted rewrite. Placeholders: {addr} {street} {res} {hrs}
 * (2215 hrs) {time} (22:15) {veh} {plate}. `house: false` means the incident
 * happened away from any home (the report shows N/A for the address).
 */
interface Template {
  raw: string;
  ai: string;
  injury?: boolean;
  emsPbso?: boolean;
  house?: boolean;
}

const TEMPLATES: Record<ReportType, Template[]> = {
  accident: [
    {
      raw: 'ofc responded to {addr} approx {hrs} for 2 veh accident in the driveway. {veh} backed into parked landscaping trailer. no injuries. res {res} notified, photos taken, drivers exchanged info',
      ai: 'The officer responded to {addr} at approximately {time} for a two-vehicle accident in the driveway. A {veh} backed into a parked landscaping trailer. No injuries were reported. The resident, {res}, was notified; photos were taken and the drivers exchanged information.',
    },
    {
      raw: 'golf cart vs bicycle at the corner by {addr}. juvenile rider w/ scrape on left knee, refused transport. EMS and PBSO called per protocol, parent on scene. res {res} witnessed',
      ai: 'A golf cart and a bicycle collided at the corner by {addr}. The juvenile rider had a scrape on the left knee and refused transport. EMS and PBSO were called per protocol, and a parent was on scene. The resident, {res}, witnessed the collision.',
      injury: true,
      emsPbso: true,
    },
  ],
  assist_ems: [
    {
      raw: 'EMS requested gate access for {addr} approx {hrs}. ofc escorted ambulance to res, {res} transported to Jupiter Medical Center. house secured after departure',
      ai: 'EMS requested gate access for {addr} at approximately {time}. The officer escorted the ambulance to the residence, and {res} was transported to Jupiter Medical Center. The house was secured after their departure.',
      injury: true,
      emsPbso: true,
    },
    {
      raw: 'assisted fire rescue w/ lift assist at {addr}. res {res} slipped in bathroom, no visible injury, declined transport. family contacted',
      ai: 'The officer assisted fire rescue with a lift assist at {addr}. The resident, {res}, had slipped in the bathroom, showed no visible injury and declined transport. Family members were contacted.',
      emsPbso: true,
    },
  ],
  damaged_mailbox: [
    {
      raw: 'mailbox at {addr} knocked over, post cracked at the base. tire marks in swale, possibly delivery truck. res {res} notified, photos taken',
      ai: 'The mailbox at {addr} was knocked over and its post was cracked at the base. Tire marks in the swale suggest a delivery truck. The resident, {res}, was notified and photos were taken.',
    },
    {
      raw: 'res {res} reported mailbox door broken off at {addr}. ofc inspected approx {hrs}, hinge bent. advised res to contact HOA for repair',
      ai: 'The resident, {res}, reported that the mailbox door at {addr} had broken off. The officer inspected it at approximately {time} and found the hinge bent. The resident was advised to contact the HOA for a repair.',
    },
  ],
  ems_response: [
    {
      raw: 'responded to medical alarm at {addr} approx {hrs}. res {res} conscious and talking, complained of chest pain. EMS on scene 6 min later, res transported',
      ai: 'The officer responded to a medical alarm at {addr} at approximately {time}. The resident, {res}, was conscious and talking and complained of chest pain. EMS arrived six minutes later and transported the resident.',
      injury: true,
      emsPbso: true,
    },
    {
      raw: '911 call from {addr}. ofc met EMS at main gate and led them to the res. {res} treated on scene for low blood sugar, not transported',
      ai: 'A 911 call came from {addr}. The officer met EMS at the main gate and led them to the residence. {res} was treated on scene for low blood sugar and was not transported.',
      emsPbso: true,
    },
  ],
  false_alarm: [
    {
      raw: 'alarm co called re burglar alarm at {addr}. ofc checked perimeter approx {hrs}, all doors and windows secure, no signs of entry. res {res} called back, cleaning crew set it off by mistake',
      ai: 'The alarm company called about a burglar alarm at {addr}. The officer checked the perimeter at approximately {time}; all doors and windows were secure with no signs of entry. The resident, {res}, called back: the cleaning crew had set it off by mistake.',
    },
    {
      raw: 'smoke detector going off at {addr}. no smoke or fire observed. res {res} said burnt toast. alarm reset, fire rescue cancelled',
      ai: 'A smoke detector was going off at {addr}. No smoke or fire was observed. The resident, {res}, said it was burnt toast. The alarm was reset and fire rescue was cancelled.',
    },
  ],
  garage_door_light_check: [
    {
      raw: 'night patrol garage door and light check on {street}. garage at {addr} closed, coach light out on left side. msg left for res {res}',
      ai: 'During the night patrol garage door and light check on {street}, the garage at {addr} was closed, but the left coach light was out. A message was left for the resident, {res}.',
    },
    {
      raw: 'garage door light check at {addr} approx {hrs}: garage closed, porch and coach lights working. no issues',
      ai: 'Garage door and light check at {addr} at approximately {time}: the garage was closed and the porch and coach lights were working. No issues.',
    },
  ],
  house_check: [
    {
      raw: 'house check completed at {addr}. front door and garage secure, pool cage closed, no pkgs at the door. everything ok',
      ai: 'A house check was completed at {addr}. The front door and garage were secure, the pool cage was closed and there were no packages at the door. Everything was OK.',
    },
    {
      raw: 'house check at {addr} approx {hrs}. side gate unlatched, ofc closed it. sprinkler head broken in front bed, water running. res {res} notified by phone',
      ai: 'House check at {addr} at approximately {time}. The side gate was unlatched and the officer closed it. A sprinkler head in the front bed was broken and water was running. The resident, {res}, was notified by phone.',
    },
    {
      raw: 'walked around {addr}, all doors locked, blinds down, flyers picked up from driveway. mail piling up, advised res {res} to put a hold on mail',
      ai: 'The officer walked around {addr}: all doors were locked and the blinds were down, and flyers were picked up from the driveway. Mail is piling up, so the resident, {res}, was advised to put a hold on the mail.',
    },
  ],
  loud_noise: [
    {
      raw: 'noise complaint from nbr of {addr} approx {hrs}. loud music from back patio, party w/ approx 20 ppl. spoke to res {res}, music turned down',
      ai: 'A neighbor of {addr} complained about noise at approximately {time}: loud music from the back patio, with a party of about 20 people. The officer spoke to the resident, {res}, and the music was turned down.',
    },
    {
      raw: 'res {res} at {addr} reported construction noise before 8 AM. contractor told to follow HOA work hours 8 AM - 6 PM',
      ai: 'The resident, {res}, at {addr} reported construction noise before 8 AM. The contractor was told to follow the HOA work hours of 8 AM to 6 PM.',
    },
  ],
  open_garage_door: [
    {
      raw: 'garage door found open at {addr} approx {hrs}, no veh inside, no answer at door. called res {res}, forgot to close it. ofc closed it w/ keypad code on file',
      ai: 'The garage door at {addr} was found open at approximately {time}, with no vehicle inside and no answer at the door. The resident, {res}, was called and said they forgot to close it. The officer closed it with the keypad code on file.',
    },
    {
      raw: 'open garage at {addr} during night patrol. res {res} came out, was unloading groceries. no issue',
      ai: 'The garage at {addr} was open during the night patrol. The resident, {res}, came out; they were unloading groceries. No issue.',
    },
  ],
  ticket_issued: [
    {
      raw: 'ticket issued to {veh} FL plt {plate} parked on the grass in front of {addr} overnight, HOA violation. res {res} informed',
      ai: 'A ticket was issued to a {veh} (Florida plate {plate}) parked overnight on the grass in front of {addr}, an HOA violation. The resident, {res}, was informed.',
    },
    {
      raw: 'commercial veh ({veh}) parked in the street at {addr} after 7 PM. ticket placed on windshield, plt {plate}',
      ai: 'A commercial vehicle (a {veh}) was parked in the street at {addr} after 7 PM. A ticket was placed on the windshield; plate {plate}.',
    },
  ],
  unauthorized_entry: [
    {
      raw: 'susp person walking thru backyards behind {addr} approx {hrs}. subject fled over north fence when approached. PBSO notified, res {res} advised to keep doors locked',
      ai: 'A suspicious person was walking through the backyards behind {addr} at approximately {time}. The subject fled over the north fence when approached. PBSO was notified, and the resident, {res}, was advised to keep the doors locked.',
      emsPbso: true,
    },
    {
      raw: 'contractor veh {veh} came in thru resident lane w/o pass, went to {addr}. res {res} confirmed worker, contractor told to use the visitor gate',
      ai: 'A contractor vehicle, a {veh}, came in through the resident lane without a pass and went to {addr}. The resident, {res}, confirmed the worker, and the contractor was told to use the visitor gate.',
    },
  ],
  vehicle_damage: [
    {
      raw: 'res {res} reported scratch down drivers side of {veh} parked in front of {addr}. happened overnight, no witnesses. photos taken, res advised to file PBSO report',
      ai: "The resident, {res}, reported a scratch down the driver's side of a {veh} parked in front of {addr}. It happened overnight and there were no witnesses. Photos were taken, and the resident was advised to file a PBSO report.",
    },
    {
      raw: 'golf cart hit parked {veh} at {addr} approx {hrs}. cart driver gave info to res {res}. dent on rear bumper, no injuries',
      ai: 'A golf cart hit a parked {veh} at {addr} at approximately {time}. The cart driver gave their information to the resident, {res}. There is a dent on the rear bumper and no one was injured.',
    },
  ],
  vehicle_tailgaite: [
    {
      raw: '{veh} FL plt {plate} tailgated res {res} thru main gate approx {hrs}. ofc stopped veh at clubhouse, driver said visiting {addr}, res confirmed. driver warned',
      ai: 'A {veh} (Florida plate {plate}) tailgated the resident {res} through the main gate at approximately {time}. The officer stopped the vehicle at the clubhouse; the driver said they were visiting {addr}, which the resident confirmed. The driver was warned.',
    },
    {
      raw: 'tailgate at back gate: {veh} followed res veh in. ofc could not catch the veh, plt {plate} logged. res {res} at {addr} said not their guest',
      ai: "A {veh} tailgated a resident's vehicle through the back gate. The officer could not catch the vehicle; plate {plate} was logged. The resident, {res}, at {addr} said it was not their guest.",
    },
  ],
  youths_fishing: [
    {
      raw: 'approx 4 youths fishing off the bank behind the clubhouse lake approx {hrs}, no fishing per HOA rules. asked them to leave, left thru north gate',
      ai: 'About four youths were fishing off the bank of the clubhouse lake at approximately {time}; fishing is not allowed under the HOA rules. They were asked to leave and left through the north gate.',
      house: false,
    },
    {
      raw: '2 juveniles fishing at the retention pond by {addr}. said they live in the community, told of the fishing rule. res {res} is parent, notified',
      ai: 'Two juveniles were fishing at the retention pond by {addr}. They said they live in the community and were told of the fishing rule. Their parent, the resident {res}, was notified.',
    },
  ],
};

/** How often each type occurs in a month of patrol (after one of each). */
const TYPE_WEIGHTS: ReadonlyArray<readonly [ReportType, number]> = [
  ['house_check', 40], ['open_garage_door', 15], ['garage_door_light_check', 12], ['vehicle_tailgaite', 12],
  ['ticket_issued', 10], ['loud_noise', 10], ['false_alarm', 8], ['youths_fishing', 6], ['unauthorized_entry', 6],
  ['damaged_mailbox', 5], ['vehicle_damage', 5], ['accident', 4], ['assist_ems', 4], ['ems_response', 4],
];
const WEATHER_WEIGHTS: ReadonlyArray<readonly [Weather, number]> = [['clear', 40], ['sunny', 30], ['cloudy', 20], ['rainy', 10]];

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

// ---- builders ------------------------------------------------------------------

interface BuiltHouse {
  record: SeedRecord;
  street: string;
  firstResident: SeedRecord;
  primaryPhone: string;
  checkDue: boolean;
}

function buildStaff(plan: CommunityPlan, communityId: string): SeedRecord[] {
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
      return { house_check: true, house_check_start_date: day(-int(rng, 2, 5)), house_check_end_date: day(int(rng, 2, 10)), house_check_note: note };
    case 'due-checked-before':
      // Last checked during an earlier window, before this one started.
      return { house_check: true, house_check_start_date: day(-2), house_check_end_date: day(int(rng, 3, 9)), house_check_last_date: day(-int(rng, 6, 12)), house_check_note: note };
    case 'checked-today':
      return { house_check: true, house_check_start_date: day(-3), house_check_end_date: day(5), house_check_last_date: pbDate(new Date(Math.max(today.getTime(), now.getTime() - 2 * 3600_000))), house_check_note: note };
    case 'upcoming':
      return { house_check: true, house_check_start_date: day(4), house_check_end_date: day(14), house_check_note: note };
    case 'ended':
      return { house_check: true, house_check_start_date: day(-20), house_check_end_date: day(-9), house_check_last_date: day(-12), house_check_note: note };
  }
}

function buildHomes(plan: CommunityPlan, communityId: string, now: Date, data: DemoData): BuiltHouse[] {
  const rng = rngFor(`${plan.key}:homes`);
  const phoneCounter = { next: 0 };
  const homes: BuiltHouse[] = [];
  for (let i = 0; i < plan.homes; i++) {
    const street = plan.streets[i % plan.streets.length]!;
    // Number ranges of successive rounds never overlap, so every address is unique.
    const number = 100 + Math.floor(i / plan.streets.length) * 12 + int(rng, 1, 10);
    const apt = plan.aptStreets.includes(street) ? (street === 'Seagrape Ct' ? `Unit ${pick(rng, ['A', 'B', 'C'])}` : `Apt ${int(rng, 1, 3)}0${int(rng, 1, 8)}`) : '';
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
        // 555-0100..0199 is reserved for fiction, so no real line is ever called.
        const number = `+1${plan.areaCode}55501${String(phoneCounter.next++ % 100).padStart(2, '0')}`;
        if (p === 0) primaryPhone = number;
        data.phones.push({
          id: demoId(`${plan.key}:house:${i}:phone:${p}`),
          phone_number: number,
          primary: p === 0,
          type: p === 0 ? pick(rng, ['cell', 'cell', 'home'] as const) : pick(rng, ['cell', 'business', 'home'] as const),
          house: id,
        });
      }
    }
    const kind = plan.checks[i];
    homes.push({ record: house, street, firstResident: residents[0]!, primaryPhone, checkDue: kind === 'due-never-checked' || kind === 'due-checked-before' });
  }
  return homes;
}

function buildReports(plan: CommunityPlan, communityId: string, now: Date, homes: BuiltHouse[], staff: SeedRecord[], data: DemoData): void {
  const rng = rngFor(`${plan.key}:reports`);
  const thisMonth = startOfMonth(now);
  const lastMonth = subMonths(thisMonth, 1);
  for (let i = 0; i < plan.reports; i++) {
    // One of each type first, so every type shows up, then a patrol's usual mix.
    const type = i < REPORT_TYPE_VALUES.length ? REPORT_TYPE_VALUES[i]! : weighted(rng, TYPE_WEIGHTS);
    const template = pick(rng, TEMPLATES[type]);
    // Half in the current month (up to now, never later), half in the previous one.
    const [from, to] = i % 2 === 0 ? [thisMonth, now] : [lastMonth, thisMonth];
    const at = new Date(from.getTime() + Math.floor(rng() * (to.getTime() - from.getTime())));
    at.setSeconds(0, 0);
    // A house being checked today has not been checked yet: keep its reports elsewhere.
    const candidates = type === 'house_check' ? homes.filter((h) => !h.checkDue) : homes;
    const home = template.house === false ? undefined : pick(rng, candidates);
    const resident = home?.firstResident;
    const values = {
      addr: home ? [home.record.address, home.record.apt].filter(Boolean).join(' ') : '',
      street: home?.street ?? '',
      res: resident ? `${resident.first_name} ${resident.last_name}` : '',
      hrs: `${format(at, 'HHmm')} hrs`,
      time: format(at, 'HH:mm'),
      veh: pick(rng, VEHICLES),
      plate: `${String.fromCharCode(65 + int(rng, 0, 25), 65 + int(rng, 0, 25), 65 + int(rng, 0, 25))}-${int(rng, 1000, 9999)}`,
    };
    data.reports.push({
      id: demoId(`${plan.key}:report:${i}`),
      narative: fill(template.raw, values),
      // About a third went through AI assist.
      ai_generated_narative: chance(rng, 0.35) ? fill(template.ai, values) : '',
      type,
      weather: weighted(rng, WEATHER_WEIGHTS),
      incident_time: pbDate(at),
      phone_number: home?.primaryPhone ?? '',
      injury: template.injury ?? false,
      ems_pbso: template.emsPbso ?? false,
      community: communityId,
      house: home?.record.id ?? '',
      resident: resident?.id ?? '',
      created_by: pick(rng, staff).id,
    });
  }
  writtenAfterIncidents(data.reports.filter((r) => r.community === communityId), now, rngFor(`${plan.key}:report-writing`));
}

/**
 * When each report was written (`original_created`, kept as `created` by
 * pb_hooks/reports.pb.js): a few minutes to an hour after its incident, as a
 * real month of reports would be, never after `now`. The list's "Newest
 * first" sorts by creation (spec §4), so creation order must follow incident
 * order: a report is written before the next incident happens, which keeps
 * reports close together in time in the right order too.
 */
function writtenAfterIncidents(reports: SeedRecord[], now: Date, rng: Rng): void {
  const incident = (r: SeedRecord) => new Date(String(r.incident_time).replace(' ', 'T')).getTime();
  const byIncident = [...reports].sort((a, b) => incident(a) - incident(b));
  byIncident.forEach((report, i) => {
    const at = incident(report);
    const next = byIncident[i + 1];
    const written = at + int(rng, 3 * 60, 60 * 60) * 1000;
    const limit = Math.min(next ? incident(next) - 1000 : Infinity, now.getTime());
    report.original_created = pbDate(new Date(Math.max(at, Math.min(written, limit))));
  });
}

/** All demo records, grouped by collection, for the given moment. */
export function buildDemoData(now: Date): DemoData {
  const data: DemoData = { communities: [], users: [], houses: [], residents: [], phones: [], concerns: [], reports: [] };
  for (const plan of COMMUNITIES) {
    const communityId = demoId(`${plan.key}:community`);
    data.communities.push({ id: communityId, name: plan.name, address: plan.address });
    const staff = buildStaff(plan, communityId);
    data.users.push(...staff);
    const director = staff.find((s) => s.type === 'director')!;
    const homes = buildHomes(plan, communityId, now, data);
    CONCERNS.slice(0, plan.concerns).forEach((concern, i) => {
      data.concerns.push({ id: demoId(`${plan.key}:concern:${i}`), ...concern, added_by: director.id, community: communityId });
    });
    buildReports(plan, communityId, now, homes, staff, data);
  }
  return data;
}

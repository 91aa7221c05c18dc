import { loadHookLib } from '../support/hook-lib.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const { editNarrative, ABBREVIATIONS } = loadHookLib<{
  editNarrative: (text: unknown) => string;
  ABBREVIATIONS: Readonly<Record<string, string>>;
}>('offline_editor.js');

type Case = [input: string, expected: string];

const whitespace: Case[] = [
  ['  arrived at the gate  ', 'Arrived at the gate.'],
  ['walked   the\t\tperimeter', 'Walked the perimeter.'],
  ['gate\u00a0\u00a0closed', 'Gate closed.'],
  ['line one\r\nline two\rline three', 'Line one\nline two\nline three.'],
  ['  spaced line  \n   next line  ', 'Spaced line\nnext line.'],
  ['para one\n\n\n\n\npara two', 'Para one.\n\nPara two.'],
  ['para one\n   \n\t\npara two', 'Para one.\n\nPara two.'],
  ['\n\n  first paragraph\n\n\nsecond paragraph\n\n', 'First paragraph.\n\nSecond paragraph.'],
  ['', ''],
  ['   \n\t\n  ', ''],
];

const spacing: Case[] = [
  ['at the gate , then left', 'At the gate, then left.'],
  ['at the gate ; then left', 'At the gate; then left.'],
  ['notes : none', 'Notes: none.'],
  ['what happened ?', 'What happened?'],
  ['stop !', 'Stop!'],
  ['the gate was closed .', 'The gate was closed.'],
  ['gate,then left', 'Gate, then left.'],
  ['gate;then left', 'Gate; then left.'],
  ['Note:resident away', 'Note: resident away.'],
  ['really?yes', 'Really? Yes.'],
  ['stop!now', 'Stop! Now.'],
  ['gate was open.spoke to guard', 'Gate was open. Spoke to guard.'],
  ['Mr.Smith arrived', 'Mr. Smith arrived.'],
  ['arrived at 14:30.left at 15:00', 'Arrived at 14:30. Left at 15:00.'],
];

// Facts and other words that must come out exactly as written.
const unchanged: Case[] = [
  ['Arrived at 14:30.', 'Arrived at 14:30.'],
  ['Walked 3.5 miles.', 'Walked 3.5 miles.'],
  ['Saw plate ABC-123.', 'Saw plate ABC-123.'],
  ['Called EMS and PBSO.', 'Called EMS and PBSO.'],
  ['Mr. Smith was informed.', 'Mr. Smith was informed.'],
  ['Paid 1,000 dollars.', 'Paid 1,000 dollars.'],
  ['Arrived at 9 a.m. and left.', 'Arrived at 9 a.m. and left.'],
  ['Met Ms. Lee and Dr. Patel.', 'Met Ms. Lee and Dr. Patel.'],
  ['The HOA board and the U.S.A. flag.', 'The HOA board and the U.S.A. flag.'],
  ["Officer O'Brien and Sgt. McDonald arrived.", "Officer O'Brien and Sgt. McDonald arrived."],
  ["Found an iPhone and a McDonald's bag.", "Found an iPhone and a McDonald's bag."],
  ['On 01/15/2024 at 10:30pm called 561-555-0123.', 'On 01/15/2024 at 10:30pm called 561-555-0123.'],
  ['Date 2024-01-15, damage $1,250.00.', 'Date 2024-01-15, damage $1,250.00.'],
  ['Smith, John (DOB 03/04/1980) was warned.', 'Smith, John (DOB 03/04/1980) was warned.'],
  ['PBSO case #24-118833, unit 12-B, gate #4.', 'PBSO case #24-118833, unit 12-B, gate #4.'],
  ['White Ford F-150, plate FL 123-ABC.', 'White Ford F-150, plate FL 123-ABC.'],
  ['Temp was 98.6 at 0300 hrs.', 'Temp was 98.6 at 0300 hrs.'],
  ['See https://example.com/Report?id=7&x=A.B for details.', 'See https://example.com/Report?id=7&x=A.B for details.'],
  ['Email bob.smith@example.com or see www.hoa.org/Rules.', 'Email bob.smith@example.com or see www.hoa.org/Rules.'],
  ['Photo IMG_2041.JPG attached.', 'Photo IMG_2041.JPG attached.'],
  ['Resident J. Doe said no.', 'Resident J. Doe said no.'],
];

const sentenceCase: Case[] = [
  ['the car was red', 'The car was red.'],
  ['the car was red. the truck was blue', 'The car was red. The truck was blue.'],
  ['was it red? yes it was! then it left', 'Was it red? Yes it was! Then it left.'],
  ['he said "stop." then he left', 'He said "stop." Then he left.'],
  ['(the gate was open)', '(The gate was open).'],
  ['first line.\nsecond line', 'First line.\nSecond line.'],
  ['i saw it', 'I saw it.'],
  ["i'm here and i'll stay, i think", "I'm here and I'll stay, I think."],
  ['Unit 4b.the door was open', 'Unit 4b. The door was open.'],
  ['i.e. the north gate', 'i.e. the north gate.'], // "i.e." is no lone "i"
  ['iPhone found by the pool', 'iPhone found by the pool.'], // not all lowercase: left
  ['abc-123 was parked there', 'abc-123 was parked there.'], // plate at the start: left
  ['14:30 arrived on scene', '14:30 arrived on scene.'], // no letter to capitalise
  ['wait... then left', 'Wait... then left.'], // an ellipsis does not end the sentence
  ['Lot B. then the pool', 'Lot B. then the pool.'], // "B." may be an initial: left
];

const allCaps: Case[] = [
  [
    'THE RESIDENT AT APT 4B REPORTED A LOUD PARTY. I CALLED PBSO AT 23:15.',
    'The resident at apartment 4B reported a loud party. I called PBSO at 23:15.',
  ],
  ['CALLED EMS FOR MR. JONES AT THE GATE', 'Called EMS for Mr. Jones at the gate.'],
  ['LOUD MUSIC AT UNIT 4B!!', 'Loud music at unit 4B!'],
  ['WHITE SUV TAG QXR-4471 PARKED IN FIRE LANE', 'White SUV tag QXR-4471 parked in fire lane.'],
  ["I'M AT THE FRONT GATE WITH THE HOA MANAGER", "I'm at the front gate with the HOA manager."],
  // Mostly capitals but not shouting (acronyms do not count).
  ['Spoke with EMS, PBSO, HOA and FPL', 'Spoke with EMS, PBSO, HOA and FPL.'],
  ['LOCKED GATE and walked the pool area', 'LOCKED GATE and walked the pool area.'],
  ['ABC-123 EMS PBSO', 'ABC-123 EMS PBSO.'],
  ['GATE OK', 'GATE OK.'], // too short to judge
];

const punctuation: Case[] = [
  ['gate', 'Gate.'],
  ['the gate was open.', 'The gate was open.'],
  ['gate open!', 'Gate open!'],
  ['gate open?', 'Gate open?'],
  ['waited...', 'Waited...'],
  ['waited\u2026', 'Waited\u2026'],
  ['gate closed,', 'Gate closed.'],
  ['items checked;', 'Items checked.'],
  ['(see above)', '(See above).'],
  ['"stop now."', '"Stop now."'],
  ['stop..', 'Stop.'],
  ['stop!!!', 'Stop!'],
  ['why??', 'Why?'],
  ['a,, b', 'A, b.'],
  ['wait...', 'Wait...'],
  ['wait.... then', 'Wait... then.'],
  ['wait . . . then', 'Wait... then.'],
  ['first para\n\nsecond para!', 'First para.\n\nSecond para!'],
  ['Items found:\n- phone\n- wallet\nresident notified', 'Items found:\n- Phone.\n- Wallet.\nResident notified.'],
  ['1. arrived at gate\n2) left at 15:00', '1. Arrived at gate.\n2) Left at 15:00.'],
  ['* checked gate\n* checked pool', '* Checked gate.\n* Checked pool.'],
  ['1.st floor', '1.st floor.'], // no space is inserted that would make "1." a list item
  ['-', '-'],
  ['...', '...'],
];

const abbreviations: Case[] = [
  ['veh parked', 'Vehicle parked.'],
  ['2 vehs parked', '2 vehicles parked.'],
  ['VEH parked by the Veh', 'Vehicle parked by the Vehicle.'],
  ['the res called', 'The resident called.'],
  ['approx 10 ppl', 'Approximately 10 people.'],
  ['approx. 3 miles', 'Approximately 3 miles.'],
  ['spoke with ofc Smith', 'Spoke with officer Smith.'],
  ['Ofcr. Jones arrived', 'Officer Jones arrived.'],
  ['sec guard on duty', 'Security guard on duty.'],
  ['susp veh near gate', 'Suspicious vehicle near gate.'],
  ['a susp person near gate', 'A suspicious person near gate.'],
  ['came w/ res', 'Came with resident.'],
  ['came w/res', 'Came with resident.'],
  ['drove w/o lights', 'Drove without lights.'],
  ['left b/c it rained', 'Left because it rained.'],
  ['W/ the mgr', 'With the manager.'],
  ['bldg C', 'Building C.'],
  ['Apt. B4 and apt 12', 'Apartment B4 and apartment 12.'],
  ['govt car', 'Government car.'],
  ['more info', 'More information.'],
  ["the mgr's office", "The manager's office."],
  ['fire dept', 'Fire department.'],
  ['dentist appt', 'Dentist appointment.'],
  ['lic plt XYZ 789 on veh', 'License plate XYZ 789 on vehicle.'],
  ['lic. plt. ABC123 on the veh.', 'License plate ABC123 on the vehicle.'],
  ['1 pkg and 2 pkgs', '1 package and 2 packages.'],
  ['thru the gate', 'Through the gate.'],
  ['rcvd a call', 'Received a call.'],
  ['msg left', 'Message left.'],
  ['nbr complained', 'Neighbor complained.'],
  ['the veh. was parked', 'The vehicle was parked.'],
  ['spoke to res. he said the veh. left', 'Spoke to resident. He said the vehicle left.'],
  ['Res. He said hi', 'Resident. He said hi.'],
  ['parked on 12 Main st', 'Parked on 12 Main Street.'],
  ['parked on Main st', 'Parked on Main Street.'],
  ['lives at 123 Palm dr', 'Lives at 123 Palm Drive.'],
  ['drove down Military rd', 'Drove down Military Road.'],
  ['drove down the rd', 'Drove down the road.'],
  ['on Ocean ave and Glades blvd', 'On Ocean Avenue and Glades Boulevard.'],
  ['at 123 Main St. apt 4 a veh was parked', 'At 123 Main Street apartment 4 a vehicle was parked.'],
  ['parked on Main st.the veh had plate ABC-123', 'Parked on Main Street. The vehicle had plate ABC-123.'],
  [
    'res at 4500 N Ocean Blvd Apt 3B called at 02:45',
    'Resident at 4500 N Ocean Boulevard Apartment 3B called at 02:45.',
  ],
];

// Abbreviation-like words that must stay as written.
const notAbbreviations: Case[] = [
  ['Dr. Jones arrived', 'Dr. Jones arrived.'],
  ['Called Dr. Jones', 'Called Dr. Jones.'], // "Called" only starts the sentence
  ['Drove to Port St. Lucie', 'Drove to Port St. Lucie.'],
  ['Lives on Palm st. He left', 'Lives on Palm st. He left.'],
  ['returned 30 sec later', 'Returned 30 sec later.'],
  ['the susp fled', 'The susp fled.'], // suspect or suspicious? left
  ['the st was wet', 'The st was wet.'],
  ['hi-res photo and the restroom', 'Hi-res photo and the restroom.'],
  ['info@hoa.org sent it', 'info@hoa.org sent it.'],
  ['w/other guards', 'With other guards.'],
  ['came and/or left', 'Came and/or left.'],
  ['Vehicles and residents', 'Vehicles and residents.'],
];

const groups: Array<[string, Case[]]> = [
  ['whitespace', whitespace],
  ['spacing around punctuation', spacing],
  ['facts stay as written', unchanged],
  ['sentence case', sentenceCase],
  ['ALL CAPS', allCaps],
  ['final and repeated punctuation', punctuation],
  ['abbreviations', abbreviations],
  ['words that are not expanded', notAbbreviations],
];

describe('editNarrative', () => {
  describe.each(groups)('%s', (_name, cases) => {
    it.each(cases)('%j -> %j', (input, expected) => {
      expect(editNarrative(input)).toBe(expected);
    });
  });

  it('cleans up a realistic narrative', () => {
    const input = [
      'on 03/14/2025 at approx 22:40 i was on patrol near bldg 7 when i observed a susp veh  ,a blk honda civic lic plt FL QXR-4471 ,parked w/o lights in the fire lane!!',
      '',
      '',
      'i made contact w/ the driver who stated he was waiting for a res in apt 7-212 .he left the property at 22:55 thru the north gate..  PBSO was not called',
    ].join('\n');
    expect(editNarrative(input)).toBe(
      [
        'On 03/14/2025 at approximately 22:40 I was on patrol near building 7 when I observed a suspicious vehicle, a blk honda civic license plate FL QXR-4471, parked without lights in the fire lane!',
        '',
        'I made contact with the driver who stated he was waiting for a resident in apartment 7-212. He left the property at 22:55 through the north gate. PBSO was not called.',
      ].join('\n'),
    );
  });

  it('returns an empty string for null, undefined and blank input', () => {
    expect(editNarrative(null)).toBe('');
    expect(editNarrative(undefined)).toBe('');
    expect(editNarrative(' \n ')).toBe('');
  });
});

describe('ABBREVIATIONS', () => {
  it('lists about 25-35 abbreviations with lowercase keys and non-empty expansions', () => {
    const entries = Object.entries(ABBREVIATIONS);
    expect(entries.length).toBeGreaterThanOrEqual(25);
    expect(entries.length).toBeLessThanOrEqual(40);
    for (const [abbr, expansion] of entries) {
      expect(abbr).toBe(abbr.toLowerCase());
      expect(expansion.length).toBeGreaterThan(abbr.length);
    }
    expect(ABBREVIATIONS).toMatchObject({
      veh: 'vehicle',
      vehs: 'vehicles',
      res: 'resident',
      approx: 'approximately',
      ofc: 'officer',
      ofcr: 'officer',
      sec: 'security',
      susp: 'suspicious',
      'w/': 'with',
      'w/o': 'without',
      'b/c': 'because',
      st: 'Street',
      dr: 'Drive',
    });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ABBREVIATIONS)).toBe(true);
  });

  // Every listed abbreviation really is expanded, in a context that allows it.
  it.each(Object.entries(ABBREVIATIONS))('%s -> %s', (abbr, expansion) => {
    const context: Record<string, [string, string]> = {
      st: ['Parked on 12 Main st today', 'Parked on 12 Main Street today.'],
      dr: ['Parked on 12 Palm dr today', 'Parked on 12 Palm Drive today.'],
      susp: ['Saw a susp person today', 'Saw a suspicious person today.'],
      sec: ['Saw a sec guard today', 'Saw a security guard today.'],
    };
    const [input, expected] = context[abbr] ?? [`Saw a ${abbr} today`, `Saw a ${expansion} today.`];
    expect(editNarrative(input)).toBe(expected);
    // Case-insensitive, and a capital first letter is kept.
    const upper = abbr.toUpperCase();
    const out = editNarrative(input.replace(abbr, upper));
    const exp = expected.replace(expansion, expansion.charAt(0).toUpperCase() + expansion.slice(1));
    expect(out).toBe(exp);
  });
});

describe('idempotence', () => {
  const allCases = groups.flatMap(([, cases]) => cases);

  it.each(allCases)('editNarrative twice = once for %j', (input) => {
    const once = editNarrative(input);
    expect(editNarrative(once)).toBe(once);
  });

  const words = [
    ...Object.keys(ABBREVIATIONS),
    ...Object.keys(ABBREVIATIONS).map((w) => w.toUpperCase()),
    'St.',
    'Dr.',
    'approx.',
    'veh.',
    'Ofc.',
    'Main',
    'Palm',
    'Jones',
    'JONES',
    'Mr.',
    'MR.',
    'mr.',
    'the',
    'THE',
    'he',
    'HE',
    'i',
    'I',
    "i'm",
    "I'M",
    'was',
    'WAS',
    'parked',
    'PARKED',
    'fled',
    'person',
    'gate',
    'GATE',
    'spoke',
    'SPOKE',
    'a',
    'B',
    'x',
    'a.m.',
    'A.M.',
    'e.g.',
    'i.e.',
    'etc.',
    'EMS',
    'PBSO',
    'HOA',
    '14:30',
    '14:30.',
    '3.5',
    '1,000',
    'ABC-123',
    'abc-123',
    '4B',
    '12',
    '30',
    '1.',
    '2)',
    '-',
    '*',
    '...',
    '....',
    '..',
    '.',
    '!',
    '!!',
    '?',
    '??',
    ',',
    ',,',
    ';',
    ':',
    '\u2026',
    '"stop."',
    '(note)',
    '"',
    "'",
    '\u201C',
    '\u201D',
    '\u2019',
    'w/res',
    'w/other',
    'gate.spoke',
    'St.Lucie',
    'u.s.a',
    "mgr's",
    'https://x.io/A.B',
    'MAIL@X.COM',
    'pic.JPG',
    '\u00e9',
    '\u00df',
  ];
  const separators = [' ', ' ', ' ', '', '  ', '\t', '\n', '\n\n', '\r\n', ' \n '];
  const narrative = fc
    .array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...separators)), { maxLength: 30 })
    .map((parts) => parts.map(([w, s]) => w + s).join(''));

  it('holds for generated narratives', () => {
    fc.assert(
      fc.property(narrative, (input) => {
        const once = editNarrative(input);
        expect(editNarrative(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('holds for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80, unit: 'grapheme' }), (input) => {
        const once = editNarrative(input);
        expect(editNarrative(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('facts are kept', () => {
  // Every run of letters and digits that contains a digit (times, dates,
  // plates, unit numbers, phone numbers) comes out unchanged, in order.
  const withDigits = (s: string): string[] => s.match(/[A-Za-z0-9]*[0-9][A-Za-z0-9]*/g) ?? [];
  const token = fc.oneof(
    fc.constantFrom(
      'veh',
      'res',
      'approx',
      'at',
      'the',
      'GATE',
      'plate',
      'apt',
      'Main',
      'st',
      'sec',
      '.',
      ',',
      ':',
      '..',
      '!!',
    ),
    fc.stringMatching(/^[A-Z]{3}-[0-9]{3,4}$/),
    fc.stringMatching(/^[0-2][0-9]:[0-5][0-9]$/),
    fc.stringMatching(/^[0-9]{1,3}(\.[0-9])?$/),
    fc.stringMatching(/^[0-9]{2}\/[0-9]{2}\/20[0-9]{2}$/),
    fc.stringMatching(/^[0-9]{1,4}[A-Z]?$/),
  );

  it('keeps every token that contains a digit', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(token, fc.constantFrom(' ', '', '\n', '  '))), (parts) => {
        const input = parts.map(([t, s]) => t + s).join('');
        expect(withDigits(editNarrative(input))).toEqual(withDigits(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('never changes letters except by the documented rules', () => {
    // Without abbreviations, lowercase input and no line-start list markers,
    // the only letter changes are capitalisation.
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('gate', 'was', 'open', 'pool', 'he', 'left', 'at', 'noon', '14:30', '.', ',', '!', '?'),
            fc.constantFrom(' ', '', '  '),
          ),
        ),
        (parts) => {
          const input = parts.map(([t, s]) => t + s).join('');
          const letters = (s: string): string => s.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
          expect(letters(editNarrative(input))).toBe(letters(input));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** What the demo reports say, and how often each type and weather occurs. */
import type { ReportType, Weather } from '../../src/domain/reportTypes.ts';

/**
 * Narrative templates per report type: `raw` as an officer types it on a
 * phone (abbreviations, run-on sentences, so AI assist has work to do) and
 * `ai` as the assisted rewrite (a house check's `raw` is the remark of the
 * House check dialog, which has no AI assist). Placeholders: {addr} {street} {res} {hrs}
 * (2215 hrs) {time} (22:15) {veh} {plate}. `house: false` means the incident
 * happened away from any home (the report shows N/A for the address).
 */
export interface Template {
  raw: string;
  ai: string;
  injury?: boolean;
  emsPbso?: boolean;
  house?: boolean;
  /** A house check's answer to 'Is everything ok?' (the report's everything_ok). */
  everythingOk?: 'yes' | 'no';
}

export const TEMPLATES: Record<ReportType, Template[]> = {
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
      everythingOk: 'yes',
    },
    {
      raw: 'house check at {addr} approx {hrs}. side gate unlatched, ofc closed it. sprinkler head broken in front bed, water running. res {res} notified by phone',
      ai: 'House check at {addr} at approximately {time}. The side gate was unlatched and the officer closed it. A sprinkler head in the front bed was broken and water was running. The resident, {res}, was notified by phone.',
      everythingOk: 'no',
    },
    {
      raw: 'walked around {addr}, all doors locked, blinds down, flyers picked up from driveway. mail piling up, advised res {res} to put a hold on mail',
      ai: 'The officer walked around {addr}: all doors were locked and the blinds were down, and flyers were picked up from the driveway. Mail is piling up, so the resident, {res}, was advised to put a hold on the mail.',
      everythingOk: 'yes',
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

/**
 * How often each incident type occurs in a month of patrol (after one of
 * each). House checks are not drawn: each is the check of a home's window
 * (build-reports.ts), the House check dialog's report.
 */
export const TYPE_WEIGHTS: ReadonlyArray<readonly [ReportType, number]> = [
  ['open_garage_door', 15],
  ['garage_door_light_check', 12],
  ['vehicle_tailgaite', 12],
  ['ticket_issued', 10],
  ['loud_noise', 10],
  ['false_alarm', 8],
  ['youths_fishing', 6],
  ['unauthorized_entry', 6],
  ['damaged_mailbox', 5],
  ['vehicle_damage', 5],
  ['accident', 4],
  ['assist_ems', 4],
  ['ems_response', 4],
];
export const WEATHER_WEIGHTS: ReadonlyArray<readonly [Weather, number]> = [
  ['clear', 40],
  ['sunny', 30],
  ['cloudy', 20],
  ['rainy', 10],
];

export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
}

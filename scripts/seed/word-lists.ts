/** The name tables and texts the demo homes, residents and concerns are drawn from. */

export const FIRST_NAMES = ['James', 'Maria', 'Robert', 'Linda', 'Michael', 'Patricia', 'David', 'Susan', 'Carlos', 'Jennifer', 'Thomas', 'Elena', 'Richard', 'Karen', 'Daniel', 'Nancy', 'Anthony', 'Lisa', 'Mark', 'Sandra', 'Steven', 'Donna', 'Paul', 'Carol', 'Kevin', 'Michelle', 'Brian', 'Diane', 'Gary', 'Rosa', 'Frank', 'Janet', 'Raymond', 'Gloria', 'Walter', 'Yolanda', 'Henry', 'Priya', 'Wei', 'Aisha'];
export const LAST_NAMES = ['Anderson', 'Baker', 'Castillo', 'Delgado', 'Ellison', 'Fitzgerald', 'Goldberg', 'Hernandez', 'Iverson', 'Jacobs', 'Kowalski', 'Lombardi', 'McAllister', 'Nguyen', "O'Brien", 'Patel', 'Quintero', 'Rosen', 'Sullivan', 'Thompson', 'Underwood', 'Vasquez', 'Whitaker', 'Yamamoto', 'Zimmerman', 'Brennan', 'Caruso', 'Donovan', 'Esposito', 'Friedman', 'Greene', 'Haddad', 'Kaplan', 'Levine', 'Moreau', 'Novak', 'Ostrowski', 'Petrakis', 'Romano', 'Schultz'];

export const HOME_NOTES = [
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

export const CHECK_NOTES = [
  'Owners in Michigan until April. Check front door, pool cage and garage side door.',
  'Traveling for two weeks. Please pick up any packages and flyers from the driveway.',
  'Check that the lanai screen door is latched; it blows open in the wind.',
  'Water is shut off at the main. Report any running water right away.',
  'House sitter comes Sundays only. Any other car in the driveway should be reported.',
];

export const VEHICLES = ['white Toyota Camry', 'silver Honda Accord', 'black Ford F-150', 'gray Jeep Wrangler', 'blue Tesla Model 3', 'red Chevy Silverado', 'white Ram ProMaster van', 'green Subaru Outback', 'black BMW X5', 'tan Lexus RX'];

/** What residents really get called about; `say` is the middle of the spoken script. */
export const CONCERNS: ReadonlyArray<{ name: string; hint: string; say: string }> = [
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

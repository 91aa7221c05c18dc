/**
 * A home's place in the Homes list as one string: street, then house
 * number, then apt, each compared in natural order ('2 Heron' before
 * '10 Heron', 'Apt 2' before 'Apt 10'), case and accents aside. Plain
 * string comparison of two keys gives the list's order, so the device
 * (src/domain/homeOrder.ts) and the server agree on it: the server stores
 * the key in `houses.sort_key` (pb_hooks/houses.pb.js, compiled from this
 * file) and a new phone asks for the top of the list first, in this order,
 * before the rest of the homes arrive (src/data/sync/pull.ts).
 */

/**
 * '101 Banyan Cir' → number '101', street 'Banyan Cir'. The number is the
 * leading token when it starts with a digit ('12B', '1200-4'); an address
 * without one is all street.
 */
export function splitAddress(address: string): { street: string; number: string } {
  const match = /^\s*(\d[^\s,]*),?\s+(.+)$/.exec(address);
  return match ? { number: match[1]!, street: match[2]!.trim() } : { number: '', street: address.trim() };
}

/** Between the parts: below every character a part keeps, so 'Oak' sorts before 'Oak Hill'. */
const PART_SEPARATOR = '\u0001';

/**
 * One part, comparable as text: accents dropped, lower case, runs of white
 * space as one space, no control characters, and every run of digits
 * prefixed by its length in two digits (leading zeros dropped), so that
 * '9' < '10' as text ('019' < '0210').
 */
function sortablePart(text: string): string {
  // Most addresses are plain ASCII, with no accents to take off: 20,000 keys are made at once.
  const plain = /^[\u0020-\u007e]*$/.test(text) ? text : text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return (
    plain
      .toLowerCase()
      // eslint-disable-next-line no-control-regex -- a control character would sort below the parts' separator
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\d+/g, (digits) => {
        const number = digits.replace(/^0+(?=\d)/, '');
        return String(Math.min(number.length, 99)).padStart(2, '0') + number;
      })
  );
}

/** The home's sort key: street, number and apt (see the top of this file). */
export function homeSortKey(house: { address?: string | null; apt?: string | null }): string {
  const { street, number } = splitAddress(house.address ?? '');
  return [street, number, house.apt ?? ''].map(sortablePart).join(PART_SEPARATOR);
}

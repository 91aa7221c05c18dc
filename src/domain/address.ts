/** A home's street line as every screen writes it: '110 Coral Tree Way, Apt 302', or the address alone. */
export function streetLine(house: { address: string; apt?: string | null }): string {
  return [house.address, house.apt].filter(Boolean).join(', ');
}

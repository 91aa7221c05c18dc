/**
 * Sign-ins of the demo data. Public on purpose: the login page shows the
 * director's while demo mode is on, and tests sign in as each of them. A
 * production start (SCMS_DEMO=0) seeds none of these accounts.
 * Passwords are 8–24 characters, as the login form requires (docs/product.md#validation-limits).
 */
export interface DemoAccount {
  email: string;
  password: string;
}

/** Director of Palm Grove Estates: the account shown on the login page. */
export const DEMO_DIRECTOR: DemoAccount = { email: 'demo.director@palmgrove.example', password: 'PalmGrove-Demo-1' };
export const DEMO_MANAGER: DemoAccount = { email: 'demo.manager@palmgrove.example', password: 'PalmGrove-Manager-1' };
export const DEMO_REGULAR: DemoAccount = { email: 'demo.officer@palmgrove.example', password: 'PalmGrove-Officer-1' };

/** Staff of the second community, which exists to show that data is isolated. */
export const DEMO_SECOND_DIRECTOR: DemoAccount = {
  email: 'demo.director@harborpointe.example',
  password: 'HarborPointe-Demo-1',
};
export const DEMO_SECOND_MANAGER: DemoAccount = {
  email: 'demo.manager@harborpointe.example',
  password: 'HarborPointe-Mgr-1',
};

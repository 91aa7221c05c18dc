/// <reference path="../../.data/pb_data/types.d.ts" />
// Creating a user never leaves a known password (DESIGN.md "Creating a
// user"): the client's form sends a fixed placeholder (spec §7), so whatever
// it sent is replaced with a random password, which the director sees once
// in the create response as `temporary_password`. Superusers (the seed, the
// tests, the admin UI) choose a password on purpose and keep it.

onRecordCreateRequest((e) => {
  if (e.hasSuperuserAuth()) return e.next();

  const temporaryPassword = $security.randomString(20);
  // Set on the record (not the request body): PocketBase then skips the
  // form's password/passwordConfirm comparison, which was about the
  // placeholder the client typed twice.
  e.record.setPassword(temporaryPassword);
  // Colleagues in the same community see each other's e-mail (spec §3).
  e.record.setEmailVisibility(true);
  // A custom field is never saved (not in the schema) and is left out of
  // realtime events (they send a fresh copy of the record); only this
  // response carries it.
  e.record.withCustomData(true);
  e.record.set('temporary_password', temporaryPassword);
  return e.next();
}, 'users');

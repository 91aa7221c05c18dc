/// <reference path="../../.data/pb_data/types.d.ts" />
// Creating a user never leaves a known password (docs/product.md#users
// ): the original client sent a fixed placeholder; the app sends a
// throwaway random one instead (throwawayPassword in
// src/features/users/useUserActions.ts), and any other client may send
// anything, so whatever came is replaced with a random password (easy to
// read out and type: lib/passwords.js), which the director sees once in the create response as `temporary_password`.
// Superusers (the seed, the tests, the admin UI) choose a password on
// purpose and keep it.

onRecordCreateRequest((e) => {
  if (e.hasSuperuserAuth()) return e.next();

  const temporaryPassword = require(`${__hooks}/lib/passwords.js`).newTemporaryPassword();
  // Set on the record (not the request body): PocketBase then skips the
  // form's password/passwordConfirm comparison, which was about the
  // throwaway password the client sent twice.
  e.record.setPassword(temporaryPassword);
  // Colleagues in the same community see each other's e-mail (docs/product.md#users).
  e.record.setEmailVisibility(true);
  // A custom field is never saved (not in the schema) and is left out of
  // realtime events (they send a fresh copy of the record); only this
  // response carries it.
  e.record.withCustomData(true);
  e.record.set('temporary_password', temporaryPassword);
  return e.next();
}, 'users');

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Own passwords (docs/product.md#login):
 * - `must_change_password`: set by the server when a director creates a user
 *   or resets a password (the director saw that password), cleared by the
 *   server when the user sets their own. The app asks for a new password
 *   before anything else while it is set. Nobody but the server writes it
 *   (pb_hooks/users.pb.js refuses it in any request).
 * - The update rule gains a second way in: every signed-in user may update
 *   their own record when the request carries `oldPassword` (PocketBase's own
 *   password change). Which fields such a request may touch (the password
 *   only) is checked in pb_hooks/users.pb.js, against the record as loaded,
 *   so no field modifier or file upload slips past a list of body keys.
 *
 * The rules are written out here, not imported: migrations are history.
 */
migrate(
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const director = `${signedIn} && @request.auth.type = "director"`;
    const sameCommunity = 'community = @request.auth.community';
    const communityUnchanged = '(@request.body.community:isset = false || @request.body.community = community)';
    const typeRule =
      '(@request.body.type:isset = false || @request.body.type = type || (id != @request.auth.id && (@request.body.type = "manager" || @request.body.type = "regular")))';
    const directorEdit = `${director} && ${sameCommunity} && ${communityUnchanged} && ${typeRule}`;
    const ownPassword = `${signedIn} && id = @request.auth.id && @request.body.oldPassword:isset = true`;

    const users = app.findCollectionByNameOrId('users');
    users.fields.add(new BoolField({ name: 'must_change_password' }));
    users.updateRule = `(${directorEdit}) || (${ownPassword})`;
    app.save(users);
  },
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const director = `${signedIn} && @request.auth.type = "director"`;
    const users = app.findCollectionByNameOrId('users');
    users.fields.removeByName('must_change_password');
    users.updateRule = [
      `${director} && community = @request.auth.community && (@request.body.community:isset = false || @request.body.community = community)`,
      '(@request.body.type:isset = false || @request.body.type = type || (id != @request.auth.id && (@request.body.type = "manager" || @request.body.type = "regular")))',
    ].join(' && ');
    app.save(users);
  },
);

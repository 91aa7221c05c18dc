/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Protected files: report photos can show injuries, faces and
 * licence plates, and house images show where people live, so no file may be
 * downloaded by a link alone. With `protected` set, PocketBase serves a file
 * only with a short-lived file token (`?token=`, from POST /api/files/token)
 * of someone the record's view rule lets see it: a user of the same community.
 * These are every file field of the schema (1763800000_scms_schema.js) and
 * PocketBase's own `avatar` of the users collection (unused by the app, but a
 * file field all the same; a users collection without it is left as it is).
 *
 * The thumbnails the app asks for stay as declared there: 400x300 for the
 * home card and the report's photo tiles (the full file when a photo is
 * opened); PocketBase makes only the sizes a field declares.
 */
const FILE_FIELDS = [
  ['houses', 'image'],
  ['reports', 'photos'],
  ['users', 'avatar'],
];

function setProtected(app, value) {
  for (const [collectionName, fieldName] of FILE_FIELDS) {
    const collection = app.findCollectionByNameOrId(collectionName);
    const field = collection.fields.getByName(fieldName);
    if (!field) continue;
    field.protected = value;
    app.save(collection);
  }
}

migrate(
  (app) => setProtected(app, true),
  (app) => setProtected(app, false),
);

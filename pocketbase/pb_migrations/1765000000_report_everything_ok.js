/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * A house check's answer to 'Is everything ok?' as data. The narrative of a
 * check (docs/product.md#house-checks) is the remark, or one of two sentences for the answer; a
 * failed check could not be told from a passed one by anything else.
 * `everything_ok` is 'yes' or 'no' on a house check and empty on every other
 * report (the record rules, src/domain/recordRules.ts, refuse it there).
 *
 * The house checks made before it get the answer their narrative gives
 * away: the issues sentence (also in the original's spelling, 'inpected')
 * is 'no', the everything-ok sentence 'yes'. A remark replaced the sentence
 * and tells nothing, so those stay empty ('Not recorded' on screen) rather
 * than claim an answer nobody gave. src/domain/houseCheckAnswer.ts applies
 * the same rule to a check an older app version still sends without the
 * field (pb_hooks/reports.pb.js). A leading <p> (older narratives were
 * HTML) and white space are passed over. LIKE is case-insensitive for
 * ASCII, as the app's rule is.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const reports = app.findCollectionByNameOrId('reports');
    reports.fields.add(new SelectField({ name: 'everything_ok', maxSelect: 1, values: ['yes', 'no'] }));
    app.save(reports);
    const space = "' ' || char(9) || char(10) || char(13)";
    const trimmed = `ltrim(narative, ${space})`;
    const text = `(CASE WHEN ${trimmed} LIKE '<p>%' THEN ltrim(substr(${trimmed}, 4), ${space}) ELSE ${trimmed} END)`;
    app
      .db()
      .newQuery(
        `UPDATE reports SET everything_ok = CASE
           WHEN ${text} LIKE 'House was inspected and issues were found%'
             OR ${text} LIKE 'House was inpected and issues were found%' THEN 'no'
           WHEN ${text} LIKE 'House was inspected on the date and time mentioned above and everything is ok%' THEN 'yes'
           ELSE '' END
         WHERE type = 'house_check'`,
      )
      .execute();
  },
  (app) => {
    const reports = app.findCollectionByNameOrId('reports');
    reports.fields.removeByName('everything_ok');
    app.save(reports);
  },
);

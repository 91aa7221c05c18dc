/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * The first-load route (pb_hooks/first_load.pb.js) answers a new phone's
 * pages: at 20,000 homes about seventy in a few seconds, and officers of a
 * shift starting together share one address behind the gate's router. The
 * custom routes' rule (60 a minute: they place phone calls and ask a paid
 * model) would stop a first load part way, so this route gets the records
 * API's own allowance. Of the rules whose label is a prefix of the path,
 * PocketBase applies the first in the list, so this one goes first.
 */
const LABEL = '/api/scms/first-load/';

migrate(
  (app) => {
    const settings = app.settings();
    settings.rateLimits.rules = [
      { label: LABEL, audience: '', duration: 10, maxRequests: 1000 },
      ...settings.rateLimits.rules.filter((rule) => rule.label !== LABEL),
    ];
    app.save(settings);
  },
  (app) => {
    const settings = app.settings();
    settings.rateLimits.rules = settings.rateLimits.rules.filter((rule) => rule.label !== LABEL);
    app.save(settings);
  },
);

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * The changes route (pb_hooks/changes.pb.js) answers every catch-up pull:
 * at each write, reconnect and return to the app, from every officer behind
 * the gate's one address. Before it, those pulls were records API lists, so
 * it keeps their allowance rather than the custom routes' 60 a minute (they
 * place phone calls and ask a paid model). Of the rules whose label is a
 * prefix of the path, PocketBase applies the first in the list, so this one
 * goes first. (The label is written in each function: migrations share one
 * scope when the unit tests read them.)
 */

migrate(
  (app) => {
    const LABEL = '/api/scms/changes';
    const settings = app.settings();
    settings.rateLimits.rules = [
      { label: LABEL, audience: '', duration: 10, maxRequests: 1000 },
      ...settings.rateLimits.rules.filter((rule) => rule.label !== LABEL),
    ];
    app.save(settings);
  },
  (app) => {
    const LABEL = '/api/scms/changes';
    const settings = app.settings();
    settings.rateLimits.rules = settings.rateLimits.rules.filter((rule) => rule.label !== LABEL);
    app.save(settings);
  },
);

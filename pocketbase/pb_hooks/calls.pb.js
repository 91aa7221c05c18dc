/// <reference path="../../.data/pb_data/types.d.ts" />
// Calls to residents (docs/product.md#calls-to-residents). The logic lives in
// lib/calls.js and lib/call_jobs.js; handlers require them themselves
// because each runs in a pooled VM that does not see this file's top-level
// scope.

// A signed-in staff member asks the server to call a home's resident.
routerAdd('POST', '/api/scms/call-resident', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).callResident);
});

// The telephony provider reports a call's progress (signed, form-encoded).
routerAdd('POST', '/api/scms/call-status', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).callStatus);
});

// Answering-machine detection's verdict (signed).
routerAdd('POST', '/api/scms/call-status/amd', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).callAmd);
});

// The key the resident pressed after the script (signed).
routerAdd('POST', '/api/scms/call-status/gather', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).callGather);
});

// A director or a manager stops the retries of a home's call that waits for its next try.
routerAdd('POST', '/api/scms/call-retries/cancel', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).cancelCallRetries);
});

// Dials the attempts that are due now (superusers; the cron below does it every minute).
routerAdd('POST', '/api/scms/call-jobs/run', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/calls.js`).runJobs);
});

// Retries and next phones are scheduled in the database (call_attempts.due_at):
// every minute the due ones are dialled, also after a restart.
cronAdd('scms_call_attempts', '* * * * *', () => {
  require(`${__hooks}/lib/call_jobs.js`).runDueAttempts($app);
});

// A superuser's create of a call or an attempt may say when it was made
// (lib/original_created.js): the demo seed's calls of the last weeks. Nobody
// else creates either (their create rules are closed).
onRecordCreateRequest(
  (e) => {
    require(`${__hooks}/lib/original_created.js`).applyOriginalCreated(e, e.requestInfo().body);
    return e.next();
  },
  'calls',
  'call_attempts',
);

/// <reference path="../../.data/pb_data/types.d.ts" />
// Calls to residents (DESIGN.md "Backend"). The logic lives in lib/calls.js;
// handlers require it themselves because each runs in a pooled VM that does
// not see this file's top-level scope.

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

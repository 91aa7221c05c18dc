/// <reference path="../../.data/pb_data/types.d.ts" />
// Incident-narrative rewriting for the Create report screen (docs/product.md#ai-assist).

routerAdd('POST', '/api/scms/ai-assist', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/ai_assist.js`).aiAssist);
});

/// <reference path="../../.data/pb_data/types.d.ts" />
// Which server holds an account (lib/directory.js): the sign-in asks it
// before sending the password (src/data/auth.ts).

routerAdd('POST', '/api/scms/directory', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/directory.js`).answerDirectory);
});

routerAdd('GET', '/api/scms/directory/lookup', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/directory.js`).lookUpAccount);
});

/// <reference path="../../.data/pb_data/types.d.ts" />
// One set of rules (docs/product.md#validation-limits): every record write, direct
// or in a batch, obeys the rules exactly as the forms do, checked by the rules
// compiled out of src/domain before PocketBase reads the body, so a wrongly
// typed value is refused, never converted (lib/validation.js). Custom routes
// read and check their own bodies.

routerUse((e) => require(`${__hooks}/lib/validation.js`).checkRawRequest(e));

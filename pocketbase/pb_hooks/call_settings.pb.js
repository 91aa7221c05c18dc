/// <reference path="../../.data/pb_data/types.d.ts" />
// A community's call settings (issue 14): directors write them (API rules);
// lib/call_settings.js checks the time zone. Handlers require the lib
// themselves (pooled VMs do not see this file's top-level scope).

onRecordCreateRequest((e) => require(`${__hooks}/lib/call_settings.js`).checkTimeZone(e), 'call_settings');
onRecordUpdateRequest((e) => require(`${__hooks}/lib/call_settings.js`).checkTimeZone(e), 'call_settings');

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Calls that reach people. A `calls` record becomes the job (home,
 * concerns, script, who, when: as before) with its progress, its outcome and
 * whether the resident acknowledged; each dial is a `call_attempts` record
 * (number, provider id, start, end, duration, outcome, acknowledgement) that
 * also carries its schedule (`due_at`, `state`), so PocketBase's cron finds
 * due retries in the database after a restart; `call_settings` holds each
 * community's retries, text fallback and quiet hours (directors edit them);
 * a phone can be marked do-not-call.
 *
 * Written out, not imported: migrations are history. Only field kinds the
 * schema sandbox of tests/support/migration-schema.ts knows are added to the
 * existing collections.
 */
migrate(
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const director = `${signedIn} && @request.auth.type = "director"`;
    const sameCommunity = 'community = @request.auth.community';
    const communityUnchanged = '(@request.body.community:isset = false || @request.body.community = community)';
    const E164 = '^\\+[1-9][0-9]{1,14}$';
    const OUTCOMES = ['answered', 'voicemail', 'busy', 'no_answer', 'failed'];
    const idField = {
      type: 'text',
      name: 'id',
      primaryKey: true,
      system: true,
      required: true,
      min: 15,
      max: 15,
      pattern: '^[a-z0-9]+$',
      autogeneratePattern: '[a-z0-9]{15}',
    };
    const autodates = () => [
      { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
      { type: 'autodate', name: 'updated', onCreate: true, onUpdate: true },
    ];
    const communities = app.findCollectionByNameOrId('communities');
    const houses = app.findCollectionByNameOrId('houses');
    const phones = app.findCollectionByNameOrId('phones');

    // ---- phones: the resident's wish not to be called on a number -----------
    phones.fields.add(new BoolField({ name: 'do_not_call' }));
    app.save(phones);

    // ---- calls: the job ------------------------------------------------------
    const calls = app.findCollectionByNameOrId('calls');
    // '' for calls placed before this migration (one attempt, already over).
    calls.fields.add(new SelectField({ name: 'progress', maxSelect: 1, values: ['calling', 'waiting', 'done'] }));
    calls.fields.add(new SelectField({ name: 'outcome', maxSelect: 1, values: OUTCOMES }));
    calls.fields.add(new BoolField({ name: 'acknowledged' }));
    calls.fields.add(new BoolField({ name: 'text_sent' }));
    // At most one job per home is calling or waiting to call again.
    calls.indexes.push(
      "CREATE UNIQUE INDEX idx_calls_one_active ON calls (house) WHERE progress IN ('calling', 'waiting')",
    );
    app.save(calls);

    // ---- call_attempts: one dial (or one phone skipped) ----------------------
    const attempts = new Collection({
      type: 'base',
      name: 'call_attempts',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        { type: 'relation', name: 'call', required: true, maxSelect: 1, collectionId: calls.id, cascadeDelete: true },
        { type: 'relation', name: 'house', required: true, maxSelect: 1, collectionId: houses.id, cascadeDelete: true },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        // 1, 2, ... within the call: the idempotency key of a dial.
        { type: 'number', name: 'sequence', required: true, min: 1, max: 100, onlyInt: true },
        // Not required: the phone may be deleted later; the number stays.
        { type: 'relation', name: 'phone', maxSelect: 1, collectionId: phones.id, cascadeDelete: false },
        { type: 'text', name: 'to_number', required: true, max: 16, pattern: E164 },
        { type: 'select', name: 'phone_type', maxSelect: 1, values: ['cell', 'home', 'business'] },
        // scheduled → dialling (claimed, being placed) → placed → ended; skipped: never dialled.
        {
          type: 'select',
          name: 'state',
          required: true,
          maxSelect: 1,
          values: ['scheduled', 'dialling', 'placed', 'ended', 'skipped'],
        },
        { type: 'date', name: 'due_at' },
        { type: 'text', name: 'provider_call_id', max: 64 },
        { type: 'text', name: 'provider_status', max: 20 },
        { type: 'text', name: 'answered_by', max: 30 },
        { type: 'date', name: 'started_at' },
        { type: 'date', name: 'ended_at' },
        { type: 'number', name: 'duration', min: 0, onlyInt: true },
        { type: 'select', name: 'outcome', maxSelect: 1, values: OUTCOMES },
        { type: 'bool', name: 'acknowledged' },
        // Why it failed or was skipped, for people.
        { type: 'text', name: 'reason', max: 1000 },
        ...autodates(),
      ],
      indexes: [
        'CREATE UNIQUE INDEX idx_call_attempts_sequence ON call_attempts (call, sequence)',
        "CREATE UNIQUE INDEX idx_call_attempts_provider_call_id ON call_attempts (provider_call_id) WHERE provider_call_id != ''",
        'CREATE INDEX idx_call_attempts_due ON call_attempts (state, due_at)',
        'CREATE INDEX idx_call_attempts_house_created ON call_attempts (house, created)',
        'CREATE INDEX idx_call_attempts_community_updated ON call_attempts (community, updated)',
      ],
    });
    app.save(attempts);

    // ---- call_settings: one per community; absent = the defaults -------------
    const hhmm = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
    const settings = new Collection({
      type: 'base',
      name: 'call_settings',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${director} && ${sameCommunity}`,
      updateRule: `${director} && ${sameCommunity} && ${communityUnchanged}`,
      deleteRule: null,
      fields: [
        idField,
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: true,
        },
        // Retries of a busy or unanswered number (0 is a valid choice).
        { type: 'number', name: 'retries', min: 0, max: 5, onlyInt: true },
        { type: 'number', name: 'retry_minutes', required: true, min: 1, max: 120, onlyInt: true },
        { type: 'bool', name: 'text_fallback' },
        { type: 'text', name: 'quiet_start', required: true, pattern: hhmm },
        { type: 'text', name: 'quiet_end', required: true, pattern: hhmm },
        { type: 'text', name: 'time_zone', required: true, min: 1, max: 64 },
        ...autodates(),
      ],
      indexes: ['CREATE UNIQUE INDEX idx_call_settings_community ON call_settings (community)'],
    });
    app.save(settings);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId('call_settings'));
    app.delete(app.findCollectionByNameOrId('call_attempts'));
    const calls = app.findCollectionByNameOrId('calls');
    for (const name of ['progress', 'outcome', 'acknowledged', 'text_sent']) calls.fields.removeByName(name);
    calls.indexes = calls.indexes.filter((index) => index.indexOf('idx_calls_one_active') === -1);
    app.save(calls);
    const phones = app.findCollectionByNameOrId('phones');
    phones.fields.removeByName('do_not_call');
    app.save(phones);
  },
);

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * The whole SCMS schema: collections and fields (names and select
 * values keep their original spelling, docs/product.md#decisions: narative, ai_generated_narative,
 * vehicle_tailgaite, the 'Ak' state), the calls collection,
 * indexes for every list the app runs, field limits of docs/product.md#validation-limits
 * and the API rules that scope every record to the
 * signed-in user's community.
 *
 * Migrations are history: the limits are written out here on purpose, not
 * imported, so that a later change of a constant cannot rewrite what an old
 * migration did.
 */
migrate(
  (app) => {
    // ---- rule building blocks -------------------------------------------------
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const director = `${signedIn} && @request.auth.type = "director"`;
    const sameCommunity = 'community = @request.auth.community';
    const communityUnchanged = '(@request.body.community:isset = false || @request.body.community = community)';
    const viaHouse = 'house.community = @request.auth.community';
    const houseUnchanged = '(@request.body.house:isset = false || @request.body.house = house)';

    const autodates = () => [
      { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
      { type: 'autodate', name: 'updated', onCreate: true, onUpdate: true },
    ];
    // Every id may be chosen by the client (the outbox creates records with ids
    // it generated offline); PocketBase rejects a second create with the same id.
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

    const STATES = [
      'AL',
      'Ak',
      'AZ',
      'AR',
      'AS',
      'CA',
      'CO',
      'CT',
      'DE',
      'DC',
      'FL',
      'GA',
      'GU',
      'HI',
      'ID',
      'IL',
      'IN',
      'IA',
      'KS',
      'KY',
      'LA',
      'ME',
      'MD',
      'MA',
      'MI',
      'MN',
      'MS',
      'MO',
      'MT',
      'NE',
      'NV',
      'NH',
      'NJ',
      'NM',
      'NY',
      'NC',
      'ND',
      'MP',
      'OH',
      'OK',
      'OR',
      'PA',
      'PR',
      'RI',
      'SC',
      'SD',
      'TN',
      'TX',
      'TT',
      'UT',
      'VT',
      'VA',
      'VI',
      'WA',
      'WV',
      'WI',
      'WY',
    ];
    const REPORT_TYPES = [
      'accident',
      'assist_ems',
      'damaged_mailbox',
      'ems_response',
      'false_alarm',
      'garage_door_light_check',
      'house_check',
      'loud_noise',
      'open_garage_door',
      'ticket_issued',
      'unauthorized_entry',
      'vehicle_damage',
      'vehicle_tailgaite',
      'youths_fishing',
    ];
    const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'];
    const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif'];
    const E164 = '^\\+[1-9][0-9]{1,14}$';

    // ---- communities ----------------------------------------------------------
    const communities = new Collection({
      type: 'base',
      name: 'communities',
      listRule: `${signedIn} && id = @request.auth.community`,
      viewRule: `${signedIn} && id = @request.auth.community`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        { type: 'text', name: 'name', required: true, min: 1, max: 100 },
        { type: 'text', name: 'address', max: 200 },
        ...autodates(),
      ],
    });
    app.save(communities);

    // ---- users (the built-in auth collection, extended) -----------------------
    const users = app.findCollectionByNameOrId('users');
    users.fields.removeByName('name');
    users.fields.add(new TextField({ name: 'first_name', required: true, min: 1, max: 30 }));
    users.fields.add(new TextField({ name: 'last_name', required: true, min: 1, max: 30 }));
    users.fields.add(
      new SelectField({ name: 'type', required: true, maxSelect: 1, values: ['director', 'manager', 'regular'] }),
    );
    users.fields.add(
      new RelationField({
        name: 'community',
        required: true,
        maxSelect: 1,
        collectionId: communities.id,
        cascadeDelete: false,
      }),
    );
    users.listRule = `${signedIn} && ${sameCommunity}`;
    users.viewRule = `${signedIn} && ${sameCommunity}`;
    // A director adds managers and regulars to their own community only.
    users.createRule = `${director} && ${sameCommunity} && (type = "manager" || type = "regular")`;
    // Nobody moves a user to another community; nobody changes their own type;
    // a director gives only manager or regular.
    users.updateRule = [
      `${director} && ${sameCommunity} && ${communityUnchanged}`,
      '(@request.body.type:isset = false || @request.body.type = type || (id != @request.auth.id && (@request.body.type = "manager" || @request.body.type = "regular")))',
    ].join(' && ');
    users.deleteRule = `${director} && ${sameCommunity} && id != @request.auth.id`;
    users.manageRule = null;
    users.authRule = '';
    users.passwordAuth.enabled = true;
    users.passwordAuth.identityFields = ['email'];
    users.indexes = users.indexes.concat(['CREATE INDEX idx_users_community ON users (community)']);
    app.save(users);

    // ---- houses ---------------------------------------------------------------
    const houses = new Collection({
      type: 'base',
      name: 'houses',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      // The pending call ids belong to the call routes, never to a client.
      createRule: `${signedIn} && ${sameCommunity} && (@request.body.pending_call_concerns_ids:isset = false || @request.body.pending_call_concerns_ids = "")`,
      updateRule: `${signedIn} && ${sameCommunity} && ${communityUnchanged} && (@request.body.pending_call_concerns_ids:isset = false || @request.body.pending_call_concerns_ids = pending_call_concerns_ids)`,
      deleteRule: `${director} && ${sameCommunity}`,
      fields: [
        idField,
        { type: 'text', name: 'address', required: true, min: 1, max: 100 },
        { type: 'text', name: 'apt', max: 100 },
        { type: 'text', name: 'city', required: true, min: 1, max: 100 },
        // Defaults to FL in pb_hooks when left empty (a select has no default).
        { type: 'select', name: 'state', required: true, maxSelect: 1, values: STATES },
        { type: 'text', name: 'zip', required: true, min: 1, max: 100 },
        {
          type: 'file',
          name: 'image',
          maxSelect: 1,
          maxSize: 5 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ['400x300', '100x100'],
        },
        { type: 'text', name: 'member_number', max: 14 },
        { type: 'text', name: 'security_code', max: 8 },
        { type: 'text', name: 'note', max: 4500 },
        { type: 'text', name: 'pending_call_concerns_ids', max: 200, pattern: '^([a-z0-9]{15}(,[a-z0-9]{15}){0,2})?$' },
        { type: 'bool', name: 'house_check' },
        { type: 'date', name: 'house_check_start_date' },
        { type: 'date', name: 'house_check_end_date' },
        { type: 'date', name: 'house_check_last_date' },
        { type: 'text', name: 'house_check_note', max: 4500 },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        ...autodates(),
      ],
      indexes: [
        'CREATE INDEX idx_houses_community_updated ON houses (community, updated)',
        'CREATE INDEX idx_houses_address ON houses (address)',
      ],
    });
    app.save(houses);

    // ---- residents and phones (scoped through their house) --------------------
    const residents = new Collection({
      type: 'base',
      name: 'residents',
      listRule: `${signedIn} && ${viaHouse}`,
      viewRule: `${signedIn} && ${viaHouse}`,
      createRule: `${signedIn} && ${viaHouse}`,
      updateRule: `${signedIn} && ${viaHouse} && ${houseUnchanged}`,
      deleteRule: `${signedIn} && ${viaHouse}`,
      fields: [
        idField,
        { type: 'text', name: 'first_name', max: 30 },
        { type: 'text', name: 'last_name', max: 30 },
        { type: 'bool', name: 'owner' },
        { type: 'relation', name: 'house', required: true, maxSelect: 1, collectionId: houses.id, cascadeDelete: true },
        ...autodates(),
      ],
      indexes: [
        'CREATE INDEX idx_residents_house ON residents (house)',
        'CREATE INDEX idx_residents_updated ON residents (updated)',
      ],
    });
    app.save(residents);

    const phones = new Collection({
      type: 'base',
      name: 'phones',
      listRule: `${signedIn} && ${viaHouse}`,
      viewRule: `${signedIn} && ${viaHouse}`,
      createRule: `${signedIn} && ${viaHouse}`,
      updateRule: `${signedIn} && ${viaHouse} && ${houseUnchanged}`,
      deleteRule: `${signedIn} && ${viaHouse}`,
      fields: [
        idField,
        // Stored in E.164 (docs/product.md#decisions).
        { type: 'text', name: 'phone_number', required: true, min: 3, max: 16, pattern: E164 },
        { type: 'bool', name: 'primary' },
        { type: 'select', name: 'type', maxSelect: 1, values: ['cell', 'home', 'business'] },
        { type: 'relation', name: 'house', required: true, maxSelect: 1, collectionId: houses.id, cascadeDelete: true },
        ...autodates(),
      ],
      indexes: [
        'CREATE INDEX idx_phones_house ON phones (house)',
        'CREATE INDEX idx_phones_updated ON phones (updated)',
      ],
    });
    app.save(phones);

    // ---- concerns (directors manage) ------------------------------------------
    const concerns = new Collection({
      type: 'base',
      name: 'concerns',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${director} && ${sameCommunity} && added_by = @request.auth.id`,
      updateRule: `${director} && ${sameCommunity} && ${communityUnchanged} && (@request.body.added_by:isset = false || @request.body.added_by = @request.auth.id)`,
      deleteRule: `${director} && ${sameCommunity}`,
      fields: [
        idField,
        // One set of limits for create and edit (docs/product.md#decisions).
        { type: 'text', name: 'name', required: true, min: 1, max: 100 },
        { type: 'text', name: 'hint', required: true, min: 1, max: 200 },
        { type: 'text', name: 'say', required: true, min: 1, max: 350 },
        // Not required in the schema (the create rule still demands the signed-in
        // director), so removing that director later does not lock the concern.
        { type: 'relation', name: 'added_by', maxSelect: 1, collectionId: users.id, cascadeDelete: false },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        ...autodates(),
      ],
      indexes: ['CREATE INDEX idx_concerns_community ON concerns (community)'],
    });
    app.save(concerns);

    // ---- reports --------------------------------------------------------------
    const reports = new Collection({
      type: 'base',
      name: 'reports',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      // The creator is always the signed-in user; a linked house or resident
      // must belong to the same community.
      createRule: [
        `${signedIn} && ${sameCommunity} && created_by = @request.auth.id`,
        '(house = "" || house.community = @request.auth.community)',
        '(resident = "" || resident.house.community = @request.auth.community)',
      ].join(' && '),
      updateRule: [
        `${director} && ${sameCommunity} && ${communityUnchanged}`,
        '(@request.body.created_by:isset = false || @request.body.created_by = created_by)',
        '(@request.body.house:isset = false || @request.body.house = "" || @request.body.house.community = @request.auth.community)',
        '(@request.body.resident:isset = false || @request.body.resident = "" || @request.body.resident.house.community = @request.auth.community)',
      ].join(' && '),
      deleteRule: `${director} && ${sameCommunity}`,
      fields: [
        idField,
        { type: 'text', name: 'narative', required: true, min: 1, max: 4500 },
        { type: 'text', name: 'ai_generated_narative', max: 4500 },
        { type: 'select', name: 'type', required: true, maxSelect: 1, values: REPORT_TYPES },
        {
          type: 'select',
          name: 'weather',
          required: true,
          maxSelect: 1,
          values: ['clear', 'sunny', 'cloudy', 'rainy'],
        },
        { type: 'date', name: 'incident_time', required: true },
        { type: 'text', name: 'phone_number', max: 16 },
        { type: 'bool', name: 'injury' },
        { type: 'bool', name: 'ems_pbso' },
        {
          type: 'file',
          name: 'photos',
          maxSelect: 5,
          maxSize: 10 * 1024 * 1024,
          mimeTypes: IMAGE_TYPES,
          thumbs: ['400x300'],
        },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        { type: 'relation', name: 'house', maxSelect: 1, collectionId: houses.id, cascadeDelete: false },
        { type: 'relation', name: 'resident', maxSelect: 1, collectionId: residents.id, cascadeDelete: false },
        {
          type: 'relation',
          name: 'created_by',
          required: true,
          maxSelect: 1,
          collectionId: users.id,
          cascadeDelete: false,
        },
        ...autodates(),
      ],
      indexes: [
        'CREATE INDEX idx_reports_community_incident ON reports (community, incident_time)',
        'CREATE INDEX idx_reports_created ON reports (created)',
        'CREATE INDEX idx_reports_community_updated ON reports (community, updated)',
      ],
    });
    app.save(reports);

    // ---- calls (written only by the call routes) ------------------------------
    const calls = new Collection({
      type: 'base',
      name: 'calls',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        { type: 'relation', name: 'house', required: true, maxSelect: 1, collectionId: houses.id, cascadeDelete: true },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        // Not required: deleting a concern from the catalogue must not be blocked
        // by old calls, which keep the spoken script as text.
        { type: 'relation', name: 'concerns', maxSelect: 3, collectionId: concerns.id, cascadeDelete: false },
        { type: 'text', name: 'to_number', required: true, max: 16, pattern: E164 },
        { type: 'text', name: 'script', required: true, max: 2000 },
        { type: 'select', name: 'status', required: true, maxSelect: 1, values: CALL_STATUSES },
        { type: 'text', name: 'provider_call_id', max: 64 },
        { type: 'text', name: 'error', max: 1000 },
        {
          type: 'relation',
          name: 'created_by',
          required: true,
          maxSelect: 1,
          collectionId: users.id,
          cascadeDelete: false,
        },
        ...autodates(),
      ],
      indexes: [
        'CREATE INDEX idx_calls_house_created ON calls (house, created)',
        'CREATE INDEX idx_calls_created ON calls (created)',
        'CREATE INDEX idx_calls_community_updated ON calls (community, updated)',
        "CREATE UNIQUE INDEX idx_calls_provider_call_id ON calls (provider_call_id) WHERE provider_call_id != ''",
      ],
    });
    app.save(calls);

    // ---- settings: batch API and rate limits ----------------------------------
    const settings = app.settings();
    settings.meta.appName = 'SCMS Patrol';
    // The outbox sends a house check (report + house update) as one batch.
    settings.batch.enabled = true;
    settings.batch.maxRequests = 50;
    settings.batch.timeout = 10;
    settings.batch.maxBodySize = 64 * 1024 * 1024;
    settings.rateLimits.enabled = true;
    settings.rateLimits.rules = [
      // Sign-in attempts per client: enough for people who mistype, too few to guess passwords.
      { label: '*:authWithPassword', audience: '', duration: 60, maxRequests: 20 },
      // The custom routes place real phone calls and ask a paid model.
      { label: '/api/scms/', audience: '', duration: 60, maxRequests: 60 },
      // The provider's status callbacks (about four per call, from few addresses;
      // Twilio does not retry a 429). Signed, so only the provider gets far.
      { label: '/api/scms/call-status', audience: '', duration: 60, maxRequests: 1200 },
      { label: '/api/batch', audience: '', duration: 1, maxRequests: 20 },
      { label: '/api/', audience: '', duration: 10, maxRequests: 1000 },
    ];
    app.save(settings);
  },
  (app) => {
    for (const name of ['calls', 'reports', 'concerns', 'phones', 'residents', 'houses']) {
      app.delete(app.findCollectionByNameOrId(name));
    }
    const users = app.findCollectionByNameOrId('users');
    for (const name of ['first_name', 'last_name', 'type', 'community']) users.fields.removeByName(name);
    users.indexes = users.indexes.filter((index) => index.indexOf('idx_users_community') === -1);
    app.save(users);
    app.delete(app.findCollectionByNameOrId('communities'));
  },
);

/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Checkpoint tours (docs/product.md#checkpoint-tours): the places a patrol
 * must pass (checkpoints, each with a sticker), the tours that order them on
 * a clock schedule, the rounds officers walk (tour_walks) and each scan of a
 * checkpoint on a walk (checkpoint_scans).
 *
 * - Directors and managers make and change checkpoints and tours; every
 *   signed-in user of the community reads them (an officer's phone matches
 *   a scanned sticker against its mirror, offline).
 * - A checkpoint's `token` (in its QR code) and `short_code` (printed under
 *   it) are made by the server on create and never change through the API
 *   (pb_hooks/tours.pb.js): a device cannot choose one, so a sticker cannot
 *   be made for a checkpoint that was not given it.
 * - A walk is started by the officer walking it, who alone may end it, once
 *   (`ended_at` and `end_reason`, nothing else). Scans are write-once: the
 *   officer's own, on their own walk while it is open, in their community,
 *   never changed or deleted through the API; the server checks the code the phone read or the officer typed
 *   against the checkpoint and works out where the scan was made.
 * - Device time (`started_at`, `ended_at`, `scanned_at`) is kept beside
 *   the server's (`created`), as reports keep both.
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const manages = `${signedIn} && (@request.auth.type = "director" || @request.auth.type = "manager")`;
    const sameCommunity = 'community = @request.auth.community';
    const communityUnchanged = '(@request.body.community:isset = false || @request.body.community = community)';
    const unset = (...fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(' && ');
    const communities = app.findCollectionByNameOrId('communities');
    const users = app.findCollectionByNameOrId('users');

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
    const community = {
      type: 'relation',
      name: 'community',
      required: true,
      maxSelect: 1,
      collectionId: communities.id,
      cascadeDelete: false,
    };
    const userLink = (name, required) => ({
      type: 'relation',
      name,
      required,
      maxSelect: 1,
      collectionId: users.id,
      cascadeDelete: false,
    });
    const autodates = [
      { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
      { type: 'autodate', name: 'updated', onCreate: true, onUpdate: true },
    ];
    // {latitude, longitude, accuracy}: three numbers need about 100 bytes.
    const position = { type: 'json', name: 'position', maxSize: 512 };

    // ---- checkpoints ----------------------------------------------------------
    const checkpoints = new Collection({
      type: 'base',
      name: 'checkpoints',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${manages} && ${sameCommunity} && created_by = @request.auth.id`,
      updateRule: `${manages} && ${sameCommunity} && ${communityUnchanged} && ${unset('created_by')}`,
      deleteRule: `${manages} && ${sameCommunity}`,
      fields: [
        idField,
        community,
        { type: 'text', name: 'name', required: true, min: 1, max: 80 },
        position,
        { type: 'number', name: 'radius', required: true, min: 10, max: 1000, onlyInt: true },
        { type: 'text', name: 'instructions', max: 1000 },
        { type: 'text', name: 'question', max: 200 },
        { type: 'text', name: 'token', required: true, min: 20, max: 20, pattern: '^[a-z0-9]+$' },
        { type: 'text', name: 'short_code', required: true, min: 6, max: 6, pattern: '^[2-9A-HJKMNP-TV-Z]+$' },
        userLink('created_by', false),
        ...autodates,
      ],
      indexes: [
        'CREATE UNIQUE INDEX idx_checkpoints_token ON checkpoints (token)',
        'CREATE UNIQUE INDEX idx_checkpoints_short_code ON checkpoints (community, short_code)',
        'CREATE INDEX idx_checkpoints_community_updated ON checkpoints (community, updated)',
      ],
    });
    app.save(checkpoints);

    // ---- tours ----------------------------------------------------------------
    const tours = new Collection({
      type: 'base',
      name: 'tours',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${manages} && ${sameCommunity} && created_by = @request.auth.id`,
      updateRule: `${manages} && ${sameCommunity} && ${communityUnchanged} && ${unset('created_by')}`,
      deleteRule: `${manages} && ${sameCommunity}`,
      fields: [
        idField,
        community,
        { type: 'text', name: 'name', required: true, min: 1, max: 80 },
        // In walking order. A checkpoint deleted later leaves the list (not required per item).
        {
          type: 'relation',
          name: 'checkpoints',
          required: true,
          maxSelect: 50,
          collectionId: checkpoints.id,
          cascadeDelete: false,
        },
        { type: 'text', name: 'start', required: true, pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
        { type: 'text', name: 'end', required: true, pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' },
        { type: 'number', name: 'every_minutes', required: true, min: 15, max: 1440, onlyInt: true },
        { type: 'number', name: 'round_minutes', required: true, min: 5, max: 720, onlyInt: true },
        { type: 'bool', name: 'ordered' },
        { type: 'bool', name: 'active' },
        userLink('created_by', false),
        ...autodates,
      ],
      indexes: ['CREATE INDEX idx_tours_community_updated ON tours (community, updated)'],
    });
    app.save(tours);

    // ---- tour_walks: an officer's walk of one round ----------------------------
    const walks = new Collection({
      type: 'base',
      name: 'tour_walks',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${signedIn} && ${sameCommunity} && officer = @request.auth.id && tour.community = @request.auth.community && ended_at = ""`,
      // Only its officer, only to end it, once.
      updateRule: `${signedIn} && ${sameCommunity} && officer = @request.auth.id && ended_at = "" && @request.body.ended_at:isset = true && @request.body.ended_at != "" && ${unset('community', 'tour', 'officer', 'round_start', 'started_at')}`,
      deleteRule: null,
      fields: [
        idField,
        community,
        { type: 'relation', name: 'tour', required: true, maxSelect: 1, collectionId: tours.id, cascadeDelete: false },
        userLink('officer', true),
        // The scheduled start of the round walked (src/domain/tourRounds.ts): which round this is.
        { type: 'date', name: 'round_start', required: true },
        { type: 'date', name: 'started_at', required: true },
        { type: 'date', name: 'ended_at' },
        { type: 'text', name: 'end_reason', max: 500 },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_tour_walks_tour_round ON tour_walks (tour, round_start)',
        'CREATE INDEX idx_tour_walks_community_round ON tour_walks (community, round_start)',
        'CREATE INDEX idx_tour_walks_community_updated ON tour_walks (community, updated)',
      ],
    });
    app.save(walks);

    // ---- checkpoint_scans: write-once -------------------------------------------
    const scans = new Collection({
      type: 'base',
      name: 'checkpoint_scans',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      // On the officer's own walk while it is open, made after it started: nobody adds scans to another's
      // round, or to a walk that has ended (a final status never changes).
      createRule: [
        `${signedIn} && ${sameCommunity} && officer = @request.auth.id`,
        'walk.community = @request.auth.community && checkpoint.community = @request.auth.community',
        'walk.officer = @request.auth.id && walk.ended_at = "" && @request.body.scanned_at >= walk.started_at',
      ].join(' && '),
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        community,
        { type: 'relation', name: 'walk', required: true, maxSelect: 1, collectionId: walks.id, cascadeDelete: false },
        {
          type: 'relation',
          name: 'checkpoint',
          required: true,
          maxSelect: 1,
          collectionId: checkpoints.id,
          cascadeDelete: false,
        },
        userLink('officer', true),
        { type: 'date', name: 'scanned_at', required: true },
        { type: 'select', name: 'method', required: true, maxSelect: 1, values: ['camera', 'code', 'nfc'] },
        position,
        // Worked out by the server from the checkpoint and the position (src/domain/checkpointCode.ts).
        { type: 'select', name: 'place', maxSelect: 1, values: ['inside', 'outside', 'unknown'] },
        { type: 'number', name: 'distance', min: 0, onlyInt: true },
        // The answer to the checkpoint's yes/no question, when it has one.
        { type: 'select', name: 'answer', maxSelect: 1, values: ['yes', 'no'] },
        { type: 'text', name: 'note', max: 500 },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_checkpoint_scans_walk ON checkpoint_scans (walk)',
        'CREATE INDEX idx_checkpoint_scans_checkpoint ON checkpoint_scans (checkpoint)',
        'CREATE INDEX idx_checkpoint_scans_community_updated ON checkpoint_scans (community, updated)',
      ],
    });
    app.save(scans);
  },
  (app) => {
    for (const name of ['checkpoint_scans', 'tour_walks', 'tours', 'checkpoints'])
      app.delete(app.findCollectionByNameOrId(name));
  },
);

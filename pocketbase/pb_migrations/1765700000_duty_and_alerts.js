/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Officer safety and alerts (docs/product.md#on-duty-and-alerts): who is on
 * duty (duty_shifts), alarms raised for an officer (alerts: a panic pressed,
 * or a missed check-in raised by the server), each step taken on an alarm
 * (alert_events: someone responding, the officer safe, a manager's
 * resolution), a community's safety settings, and the push notifications
 * that carry alerts to phones (push_subscriptions, notification_prefs, and
 * the server's own outgoing notifications with their delivery state).
 *
 * - A shift is started and ended by its officer only (device time kept
 *   beside the server's). A shift left open past the community's limit is
 *   ended by the server (`ended_by` = "limit"); a new shift of an officer
 *   ends any they left open (`ended_by` = "new_shift").
 * - Only the officer raises their own panic; a missed check-in is raised by
 *   the server alone. Nobody changes or deletes an alert through the API:
 *   it ends through its events (pb_hooks/alerts.pb.js): 'safe' by its
 *   officer, 'resolved' by a director or manager; 'responding' by anyone of
 *   the community. Events are write-once.
 * - Only directors change the safety settings.
 * - A push subscription is its user's own; notifications are the server's
 *   alone (no API rule: the sender reads them as superuser).
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const manages = `(@request.auth.type = "director" || @request.auth.type = "manager")`;
    const sameCommunity = 'community = @request.auth.community';
    const unset = (...fields) => fields.map((field) => `@request.body.${field}:isset = false`).join(' && ');
    const communities = app.findCollectionByNameOrId('communities');
    const users = app.findCollectionByNameOrId('users');
    const E164 = '^\\+[1-9][0-9]{1,14}$';

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
    const position = (name) => ({ type: 'json', name, maxSize: 512 });
    const NOTIFICATION_KINDS = [
      'panic',
      'missed_check_in',
      'check_in_due',
      'injury_report',
      'call_acknowledged',
      'missed_round',
    ];

    // ---- duty_shifts ------------------------------------------------------------
    const shifts = new Collection({
      type: 'base',
      name: 'duty_shifts',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${signedIn} && ${sameCommunity} && officer = @request.auth.id && ended_at = "" && ${unset('ended_by', 'end_position')}`,
      // Only its officer, only to end it, once.
      updateRule: `${signedIn} && ${sameCommunity} && officer = @request.auth.id && ended_at = "" && @request.body.ended_at:isset = true && @request.body.ended_at != "" && ${unset('community', 'officer', 'started_at', 'start_position', 'ended_by')}`,
      deleteRule: null,
      fields: [
        idField,
        community,
        userLink('officer', true),
        { type: 'date', name: 'started_at', required: true },
        { type: 'date', name: 'ended_at' },
        position('start_position'),
        position('end_position'),
        // Who ended it: its officer, the server at the community's limit, or the officer's next shift.
        { type: 'select', name: 'ended_by', maxSelect: 1, values: ['officer', 'limit', 'new_shift'] },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_duty_shifts_community_updated ON duty_shifts (community, updated)',
        'CREATE INDEX idx_duty_shifts_open ON duty_shifts (community, ended_at)',
        'CREATE INDEX idx_duty_shifts_officer ON duty_shifts (officer, started_at)',
      ],
    });
    app.save(shifts);

    // ---- alerts -------------------------------------------------------------------
    const alerts = new Collection({
      type: 'base',
      name: 'alerts',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${signedIn} && ${sameCommunity} && officer = @request.auth.id && kind = "panic" && ended_at = "" && ${unset('ended_by', 'end_kind')}`,
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        community,
        userLink('officer', true),
        { type: 'select', name: 'kind', required: true, maxSelect: 1, values: ['panic', 'missed_check_in'] },
        // When the officer pressed Panic (device time; the server's `created` is when it arrived).
        { type: 'date', name: 'raised_at', required: true },
        position('position'),
        // The shift it was raised in (a missed check-in always has one).
        { type: 'text', name: 'shift', max: 15, pattern: '^[a-z0-9]*$' },
        { type: 'date', name: 'ended_at' },
        userLink('ended_by', false),
        { type: 'select', name: 'end_kind', maxSelect: 1, values: ['safe', 'resolved'] },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_alerts_community_updated ON alerts (community, updated)',
        'CREATE INDEX idx_alerts_open ON alerts (community, ended_at)',
        'CREATE INDEX idx_alerts_shift ON alerts (shift)',
      ],
    });
    app.save(alerts);

    // ---- alert_events: write-once ---------------------------------------------------
    const events = new Collection({
      type: 'base',
      name: 'alert_events',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: [
        `${signedIn} && ${sameCommunity} && by = @request.auth.id && alert.community = @request.auth.community`,
        `(kind = "responding" || (kind = "safe" && alert.officer = @request.auth.id) || (kind = "resolved" && ${manages}))`,
      ].join(' && '),
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        community,
        {
          type: 'relation',
          name: 'alert',
          required: true,
          maxSelect: 1,
          collectionId: alerts.id,
          cascadeDelete: false,
        },
        userLink('by', true),
        { type: 'select', name: 'kind', required: true, maxSelect: 1, values: ['responding', 'safe', 'resolved'] },
        { type: 'date', name: 'at', required: true },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_alert_events_community_updated ON alert_events (community, updated)',
        'CREATE INDEX idx_alert_events_alert ON alert_events (alert)',
      ],
    });
    app.save(events);

    // ---- safety_settings: one per community -----------------------------------------
    const settings = new Collection({
      type: 'base',
      name: 'safety_settings',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      createRule: `${signedIn} && ${sameCommunity} && @request.auth.type = "director"`,
      updateRule: `${signedIn} && ${sameCommunity} && @request.auth.type = "director" && ${unset('community')}`,
      deleteRule: null,
      fields: [
        idField,
        community,
        // Offered as a call when a panic cannot reach the server.
        { type: 'text', name: 'emergency_number', max: 16, pattern: E164 },
        // A shift still open after this many hours is ended by the server.
        { type: 'number', name: 'shift_limit_hours', required: true, min: 1, max: 24, onlyInt: true },
        // The lone-worker check: every N minutes of a shift (0: off), answered within the grace.
        { type: 'number', name: 'check_minutes', min: 0, max: 240, onlyInt: true },
        { type: 'number', name: 'check_grace_minutes', required: true, min: 1, max: 60, onlyInt: true },
        ...autodates,
      ],
      indexes: [
        'CREATE UNIQUE INDEX idx_safety_settings_community ON safety_settings (community)',
        'CREATE INDEX idx_safety_settings_community_updated ON safety_settings (community, updated)',
      ],
    });
    app.save(settings);

    // ---- push_subscriptions: a user's browsers ---------------------------------------
    const subscriptions = new Collection({
      type: 'base',
      name: 'push_subscriptions',
      listRule: `${signedIn} && user = @request.auth.id`,
      viewRule: `${signedIn} && user = @request.auth.id`,
      createRule: `${signedIn} && user = @request.auth.id && ${sameCommunity}`,
      updateRule: null,
      deleteRule: `${signedIn} && user = @request.auth.id`,
      fields: [
        idField,
        community,
        userLink('user', true),
        { type: 'url', name: 'endpoint', required: true },
        // The browser's keys (base64url): its P-256 public key and its auth secret.
        { type: 'text', name: 'p256dh', required: true, min: 80, max: 100, pattern: '^[A-Za-z0-9_-]+$' },
        { type: 'text', name: 'auth', required: true, min: 16, max: 32, pattern: '^[A-Za-z0-9_-]+$' },
        ...autodates,
      ],
      indexes: [
        'CREATE UNIQUE INDEX idx_push_subscriptions_endpoint ON push_subscriptions (endpoint)',
        'CREATE INDEX idx_push_subscriptions_user ON push_subscriptions (user)',
      ],
    });
    app.save(subscriptions);

    // ---- notification_prefs: what a user chose to be sent ------------------------------
    const prefs = new Collection({
      type: 'base',
      name: 'notification_prefs',
      listRule: `${signedIn} && user = @request.auth.id`,
      viewRule: `${signedIn} && user = @request.auth.id`,
      createRule: `${signedIn} && user = @request.auth.id && ${sameCommunity}`,
      updateRule: `${signedIn} && user = @request.auth.id && ${unset('user', 'community')}`,
      deleteRule: null,
      fields: [
        idField,
        community,
        userLink('user', true),
        // The kinds this user does NOT want pushed (none: everything that concerns them).
        { type: 'select', name: 'muted', maxSelect: NOTIFICATION_KINDS.length, values: NOTIFICATION_KINDS },
        ...autodates,
      ],
      indexes: ['CREATE UNIQUE INDEX idx_notification_prefs_user ON notification_prefs (user)'],
    });
    app.save(prefs);

    // ---- notifications: the server's outgoing pushes, with their delivery state ---------
    const notifications = new Collection({
      type: 'base',
      name: 'notifications',
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        idField,
        community,
        userLink('user', true),
        { type: 'select', name: 'kind', required: true, maxSelect: 1, values: NOTIFICATION_KINDS },
        { type: 'text', name: 'title', required: true, max: 120 },
        { type: 'text', name: 'body', max: 500 },
        // The screen a tap opens (an app path).
        { type: 'text', name: 'url', max: 300 },
        // What it is about (an alert's, report's or call's id): one notification per user and source and kind.
        { type: 'text', name: 'source', max: 15 },
        {
          type: 'select',
          name: 'state',
          required: true,
          maxSelect: 1,
          values: ['pending', 'sending', 'sent', 'failed', 'no_subscription'],
        },
        { type: 'number', name: 'attempts', min: 0, onlyInt: true },
        { type: 'date', name: 'sent_at' },
        { type: 'text', name: 'error', max: 500 },
        ...autodates,
      ],
      indexes: [
        'CREATE INDEX idx_notifications_state ON notifications (state, created)',
        'CREATE UNIQUE INDEX idx_notifications_source ON notifications (user, kind, source)',
      ],
    });
    app.save(notifications);
  },
  (app) => {
    for (const name of [
      'notifications',
      'notification_prefs',
      'push_subscriptions',
      'safety_settings',
      'alert_events',
      'alerts',
      'duty_shifts',
    ])
      app.delete(app.findCollectionByNameOrId(name));
  },
);

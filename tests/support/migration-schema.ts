/**
 * Runs the schema migration's `up` in a sandbox with stand-ins for
 * PocketBase's migration globals, and returns the collections it defines.
 * Lets unit tests compare the server's select values and limits with the
 * client's catalogues and schemas without starting a server.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { projectRoot } from '../../scripts/pocketbase/server.ts';

export interface FieldDefinition {
  name: string;
  type?: string;
  required?: boolean;
  min?: number;
  max?: number;
  values?: string[];
  maxSelect?: number;
  pattern?: string;
}

export interface CollectionDefinition {
  name: string;
  fields: FieldDefinition[];
  indexes: string[];
  [rule: string]: unknown;
}

class FieldStandIn {
  constructor(options: FieldDefinition, type: string) {
    Object.assign(this, { type, ...options });
  }
}

function fieldsList(initial: FieldDefinition[]) {
  const list = [...initial] as FieldDefinition[] & {
    add: (f: FieldDefinition) => void;
    removeByName: (n: string) => void;
    getByName: (n: string) => FieldDefinition | undefined;
  };
  list.add = (field) => list.push(field);
  list.getByName = (name) => list.find((f) => f.name === name);
  list.removeByName = (name) => {
    const at = list.findIndex((f) => f.name === name);
    if (at >= 0) list.splice(at, 1);
  };
  return list;
}

export function loadSchema(): Map<string, CollectionDefinition> {
  const dir = join(projectRoot, 'pocketbase', 'pb_migrations');
  const collections = new Map<string, CollectionDefinition>();
  const settings = { meta: {}, batch: {}, rateLimits: {} };
  const app = {
    findCollectionByNameOrId: (name: string) => {
      const existing = collections.get(name);
      if (existing) return existing;
      if (name !== 'users') throw new Error(`unknown collection ${name}`);
      const users = {
        name: 'users',
        id: 'users',
        fields: fieldsList([
          { name: 'email', type: 'email' },
          { name: 'name', type: 'text' },
          { name: 'password', type: 'password', min: 8, max: 71 },
        ]),
        indexes: [],
        passwordAuth: {},
      };
      collections.set('users', users);
      return users;
    },
    save: (thing: CollectionDefinition) => {
      if (thing.name) collections.set(thing.name, thing);
    },
    settings: () => settings,
    // Data changes (a migration's UPDATE of existing rows) leave the schema as it is: nothing to record.
    // Reads of existing rows find none here (a fresh database).
    db: () => {
      const query = { bind: () => query, execute: () => undefined, all: () => undefined };
      return { newQuery: () => query };
    },
  };
  let counter = 0;
  const sandbox = {
    migrate: (up: (a: typeof app) => void) => up(app),
    arrayOf: () => [],
    DynamicModel: class {},
    Collection: class {
      constructor(options: CollectionDefinition) {
        Object.assign(this, {
          id: `c${counter++}`,
          ...options,
          indexes: options.indexes ?? [],
          fields: fieldsList(options.fields),
        });
      }
    },
    TextField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'text');
      }
    },
    SelectField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'select');
      }
    },
    RelationField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'relation');
      }
    },
    BoolField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'bool');
      }
    },
    DateField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'date');
      }
    },
    JSONField: class extends FieldStandIn {
      constructor(o: FieldDefinition) {
        super(o, 'json');
      }
    },
  };
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    runInNewContext(readFileSync(join(dir, file), 'utf8'), sandbox, { filename: file });
  }
  return collections;
}

export function field(schema: Map<string, CollectionDefinition>, collection: string, name: string): FieldDefinition {
  const found = schema.get(collection)?.fields.find((f) => f.name === name);
  if (!found) throw new Error(`${collection}.${name} is not in the schema`);
  return found;
}

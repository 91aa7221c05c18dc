import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const migrationsDir = join(projectRoot, 'pocketbase', 'pb_migrations');
export const hooksDir = join(projectRoot, 'pocketbase', 'pb_hooks');

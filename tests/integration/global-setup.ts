/**
 * Once per integration run: the data folder every test server starts on
 * (makeServerTemplate: migrated, the superuser in it, passwords hashed at
 * the lowest work factor).
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { makeServerTemplate } from '../support/pocketbase.ts';

export default async function setup(project: TestProject): Promise<() => void> {
  const template = await makeServerTemplate();
  project.provide('serverTemplate', template);
  return () => rmSync(template, { recursive: true, force: true });
}

/**
 * The manifest's user-facing strings live in package.nls.json (VS Code substitutes each `%key%`): every
 * `%key%` package.json names must be there, every key there must be used, and the settings whose text
 * has code in backticks are `markdownDescription`s (a plain description shows the backticks literally).
 * The integration suite (test/vscode/lazy.ts) checks the substituted manifest in a real VS Code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const pkgText = readFileSync(resolve(ROOT, 'package.json'), 'utf8');
const pkg = JSON.parse(pkgText);
const nls: Record<string, string> = JSON.parse(readFileSync(resolve(ROOT, 'package.nls.json'), 'utf8'));

test('every %key% of package.json is in package.nls.json, and every key there is used', () => {
  const used = new Set([...pkgText.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]));
  assert.deepEqual(
    [...used].filter((k) => !(k in nls)),
    [],
    'keys missing from package.nls.json',
  );
  assert.deepEqual(
    Object.keys(nls).filter((k) => !used.has(k)),
    [],
    'keys of package.nls.json that package.json does not use',
  );
  // the command titles, the settings' texts and the walkthrough are all localisable
  for (const c of pkg.contributes.commands) assert.match(c.title, /^%.+%$/, `title of ${c.command}`);
  for (const [name, p] of Object.entries<{ description?: string; markdownDescription?: string }>(pkg.contributes.configuration.properties))
    assert.match(p.description ?? p.markdownDescription ?? '', /^%.+%$/, `description of ${name}`);
  for (const s of pkg.contributes.walkthroughs[0].steps) assert.match(s.title, /^%.+%$/, `walkthrough step ${s.id}`);
});

test('a setting whose text has code in backticks is a markdownDescription; includePaths and the run settings are per resource and restricted', () => {
  const props = pkg.contributes.configuration.properties;
  for (const [name, p] of Object.entries<{ description?: string; markdownDescription?: string }>(props)) {
    const text = nls[(p.description ?? p.markdownDescription ?? '').slice(1, -1)];
    if (text.includes('`')) assert.ok(p.markdownDescription, `${name} has backticks in a plain description: ${text}`);
  }
  assert.equal(nls['config.includePaths'].includes('`#include "..."`'), true);
  for (const name of ['tensorLens.includePaths', 'tensorLens.run.stepBudget', 'tensorLens.run.memBytes', 'tensorLens.dialect'])
    assert.equal(props[name].scope, 'resource', `${name} scope`);
  assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, [
    'tensorLens.includePaths',
    'tensorLens.run.stepBudget',
    'tensorLens.run.memBytes',
  ]);
});

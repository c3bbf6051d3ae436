import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

/**
 * A node's settings as the editor saves them when the user adds it and changes nothing: the `defaults` of its
 * registration in the built editor html, run as the editor runs it. Tests of a flow "as a user has it" start from
 * these, so a default that beats the msg (a `true` that cannot be left blank) shows up in the tests too.
 */
export function editorDefaults(type: string): Record<string, unknown> {
  const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const html = read(`dist/nodes/${type}.html`);
  const scripts = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
  const registered = new Map<string, { defaults: Record<string, { value: unknown }> }>();
  const window: Record<string, unknown> = {};
  const RED = {
    _: (key: string) => key,
    nodes: { registerType: (name: string, definition: { defaults: Record<string, { value: unknown }> }) => registered.set(name, definition) },
    validators: { typedInput: () => () => true, number: () => () => true, regex: () => () => true },
  };
  const context = { window, RED, $: () => ({}) };
  runInNewContext(read('resources/stagelink-editor.js'), context);
  for (const script of scripts) runInNewContext(script, context);
  const definition = registered.get(type);
  if (!definition) throw new Error(`dist/nodes/${type}.html registers no ${type}`);
  return Object.fromEntries(Object.entries(definition.defaults).map(([name, { value }]) => [name, structuredClone(value)]));
}

/** A node as the editor saves it: its type, its defaults, then what the user changed. */
export function savedNode(type: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { type, ...editorDefaults(type), ...changes };
}

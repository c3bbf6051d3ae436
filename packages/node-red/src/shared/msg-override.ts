import { InvalidInputError, reasonOf, type Ref } from '@stagelink/core';
import { sayingError } from './error-words.js';
import type { Node, NodeAPI, NodeDef, NodeMessage } from './node-red.js';
import { say } from './words.js';

/**
 * The message contract, as Node-RED's core nodes have it: a setting filled in on the node wins; a setting left
 * blank takes the `msg` property of the same name. A setting may be a typed input (`<name>` with `<name>Type`):
 * then it is evaluated as Node-RED evaluates typed inputs (msg, flow, global, env, ...), so a node set to
 * `msg.payload` reads the payload. Nodes never write these names onto their output, so a msg that drove one
 * node cannot steer the next.
 */
export class MessageProperties {
  constructor(
    private readonly RED: NodeAPI,
    private readonly node: Node<never>,
    private readonly def: NodeDef,
    private readonly msg: NodeMessage,
  ) {}

  /**
   * The node's setting when filled in, else `msg[name]`; `undefined` when neither gives a value. An empty string
   * is blank in both places: a change node or a form that leaves a field empty sets nothing. The editor's
   * "from msg" choice (type `frommsg`) leaves a setting to the msg whatever its kind (a true/false cannot be blank).
   */
  async value(name: string): Promise<unknown> {
    const setting = this.def[name];
    const type = this.def[`${name}Type`];
    if (isBlankSetting(setting, type)) return isBlank(this.msg[name]) ? undefined : this.msg[name];
    const value = await this.#evaluate(name, setting, type);
    this.#warnIfIgnored(name, setting, type, value);
    return value;
  }

  /**
   * Says once per node and setting, as Node-RED's http request node does for msg.url, that a msg property of the
   * setting's name was ignored because the node's own setting is filled in: a flow that sends msg.engaged to a
   * node set to true would otherwise be wrong without a word. Only a value typed into the node is such a setting:
   * one read from the msg, a context or the environment is where the flow chose to take it from. A ticked
   * checkbox (a `true` without a type) has no "from msg" choice: unticked, it leaves the option to the msg.
   */
  #warnIfIgnored(name: string, setting: unknown, type: unknown, value: unknown): void {
    const given = this.msg[name];
    if (isBlank(given) || sameValue(given, value)) return;
    if (!isLiteralType(type)) return;
    let warned = WARNED.get(this.node);
    if (!warned) WARNED.set(this.node, (warned = new Set()));
    if (warned.has(name)) return;
    warned.add(name);
    this.node.warn(say(setting === true && type === undefined ? 'warning.ignoredTicked' : 'warning.ignored', { name }));
  }

  #evaluate(name: string, setting: unknown, type: unknown): Promise<unknown> {
    if (typeof type !== 'string' || type === '' || type === 'str') return Promise.resolve(setting);
    return new Promise((resolve, reject) => {
      const fail = (error: unknown): void =>
        reject(sayingError(InvalidInputError, 'error.unreadable', { name, type: String(type), setting: settingText(setting), reason: reasonOf(error) }));
      try {
        this.RED.util.evaluateNodeProperty(setting, type, this.node, this.msg, (error, result) => {
          if (error) fail(error);
          else resolve(result === null ? undefined : result);
        });
      } catch (error) {
        // Some types throw instead of calling back (a `date` format or `bin` value that is not text or JSON).
        fail(error);
      }
    });
  }

  async text(name: string, what = name): Promise<string | undefined> {
    return asText(await this.value(name), what);
  }

  async requiredText(name: string, what = name): Promise<string> {
    return given(await this.text(name, what), name, what);
  }

  async number(name: string, what = name): Promise<number | undefined> {
    return asNumber(await this.value(name), what);
  }

  async requiredNumber(name: string, what = name): Promise<number> {
    return given(await this.number(name, what), name, what);
  }

  async boolean(name: string, what = name): Promise<boolean | undefined> {
    return asBoolean(await this.value(name), what);
  }

  /**
   * A Ref from a name or uid. A string is a name unless the node's `<name>By` setting says uid: a track called
   * "42" stays a name (uids are uint64: docs/api-notes.md). `{uid}` / `{name}` objects pass through; an array gives several refs.
   */
  async refs(name: string, what = name): Promise<Ref[] | undefined> {
    const value = await this.value(name);
    if (value === undefined || value === '') return undefined;
    const by = this.def[`${name}By`] === 'uid' ? 'uid' : 'name';
    const items = Array.isArray(value) ? (value as unknown[]) : [value];
    if (items.length === 0) return undefined;
    return items.map((item) => asRef(item, by, what));
  }

  async requiredRefs(name: string, what = name): Promise<Ref[]> {
    return given(await this.refs(name, what), name, what);
  }

  async ref(name: string, what = name): Promise<Ref | undefined> {
    const refs = await this.refs(name, what);
    if (refs === undefined) return undefined;
    if (refs.length !== 1 || !refs[0]) throw sayingError(InvalidInputError, 'error.notOne', { what, count: refs.length });
    return refs[0];
  }

  async requiredRef(name: string, what = name): Promise<Ref> {
    return given(await this.ref(name, what), name, what);
  }
}

/** The editor's "from msg" choice: the setting is left to the msg property of the same name. */
const FROM_MSG = 'frommsg';

/** Typed-input types whose setting is the value itself, as typed into the node (no type: a plain text field). */
const LITERAL_TYPES: ReadonlySet<unknown> = new Set([undefined, '', 'str', 'num', 'bool', 'json']);

function isLiteralType(type: unknown): boolean {
  return LITERAL_TYPES.has(type);
}

/** The settings each node has already warned of, so a flow sending the same msg twice a second is not a flood. */
const WARNED = new WeakMap<object, Set<string>>();

/** The msg's value is the one the setting gave: nothing was lost (the settings are plain JSON values). */
function sameValue(given: unknown, used: unknown): boolean {
  if (given === used) return true;
  // `true` sent and `'true'` set, `2` sent and `'2'` set: the same value as a setting holds it.
  if (isPrimitive(given) && isPrimitive(used)) return String(given) === String(used);
  try {
    return JSON.stringify(given) === JSON.stringify(used);
  } catch {
    return false;
  }
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * An unticked checkbox (stored as `false`) and an empty JSON object (the editor's default for a JSON field) read
 * as "not set": a msg may still turn the option on or give the object.
 */
function isBlankSetting(setting: unknown, type: unknown): boolean {
  if (type === FROM_MSG || isBlank(setting) || setting === false) return true;
  return type === 'json' && typeof setting === 'string' && /^\s*\{\s*\}\s*$/.test(setting);
}

/** A setting as it appears in an error: JSON, cut short. */
function settingText(setting: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(setting) ?? String(setting);
  } catch {
    text = String(setting);
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * Reads and removes `msg.confirm`: one confirmation arms one command, so a confirmed msg passed on cannot also
 * fire a guarded node further down the flow.
 */
export function takeConfirmation(msg: NodeMessage): boolean {
  const confirmed = msg.confirm === true;
  delete msg.confirm;
  return confirmed;
}

/** A required value: the value, or the error that says where to give it. */
function given<T>(value: T | undefined, name: string, what: string): T {
  if (value === undefined) throw missing(name, what);
  return value;
}

export function missing(name: string, what: string): InvalidInputError {
  return sayingError(InvalidInputError, 'error.missing', { what, name });
}

export function asText(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw sayingError(InvalidInputError, 'error.notText', { what, got: describe(value) });
}

export function asNumber(value: unknown, what: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw sayingError(InvalidInputError, 'error.notNumber', { what, got: describe(value) });
}

export function asBoolean(value: unknown, what: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw sayingError(InvalidInputError, 'error.notBoolean', { what, got: describe(value) });
}

function asRef(item: unknown, by: 'name' | 'uid', what: string): Ref {
  if (typeof item === 'string' && item !== '') return by === 'uid' ? { uid: item } : { name: item };
  if (typeof item === 'number') {
    // A uint64 uid loses digits as a JS number: only safe integers can be taken as uids.
    if (by === 'uid' && !Number.isSafeInteger(item)) {
      throw sayingError(InvalidInputError, 'error.inexactUid', { what, uid: item });
    }
    return by === 'uid' ? { uid: String(item) } : { name: String(item) };
  }
  // Core checks a { uid } / { name } object before anything is sent, with the same words for a uid given as a number.
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) return item;
  throw sayingError(InvalidInputError, 'error.notRef', { what, got: describe(item) });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return say('error.gotList');
  if (typeof value === 'object') return say('error.gotObject');
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  // Bare, as JSON writes them: a number or true/false tells itself from the quoted text "5".
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value;
}

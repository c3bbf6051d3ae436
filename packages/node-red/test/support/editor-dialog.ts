import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { helper } from './harness.js';

/** What the dialog's script does with one element, as jQuery offers it. */
export interface DialogElement {
  val(value?: string): string | DialogElement;
  text(value?: string): string | DialogElement;
}

type Values = Record<string, unknown>;
/** What a catalog entry's `__name__` places are filled with. */
type Facts = Record<string, string | number | undefined>;

/**
 * A config node's edit dialog as the editor runs it, to see what its buttons ask the runtime and what they show:
 * the registration from the built html, run against a stand-in for the few jQuery calls the dialog makes. Its
 * `$.getJSON` goes to the real admin endpoints of the Node-RED the test helper loaded, and `RED._` reads the
 * node set's catalog in the editor's language, which the runtime's need not share.
 */
export class EditorDialog {
  readonly #elements = new Map<string, Element>();

  constructor(type: string, node: { id: string }, language: string) {
    const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    const catalog = JSON.parse(read(`dist/nodes/locales/${language}/${type}.json`)) as Values;
    const say = (key: string, values: Facts = {}): string => {
      const found = key.split('.').reduce<unknown>((tree, part) => (tree as Values | undefined)?.[part], catalog);
      // i18next answers a missing key with the key.
      return typeof found === 'string' ? found.replace(/__(\w+)__/g, (_, name: string) => String(values[name] ?? '')) : key;
    };
    let definition: { oneditprepare(this: unknown): void } | undefined;
    const RED = {
      _: (key: string, values?: Facts) => say(key.slice(key.indexOf(':') + 1), values),
      nodes: { registerType: (_name: string, registered: typeof definition) => (definition = registered) },
      validators: { typedInput: () => () => true, number: () => () => true, regex: () => () => true },
    };
    const $ = Object.assign((what: string | Element) => this.#find(what), { getJSON: askRuntime });
    const context = { window: {}, RED, $ };
    runInNewContext(read('resources/stagelink-editor.js'), context);
    const html = read(`dist/nodes/${type}.html`);
    for (const [, script] of html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)) runInNewContext(script ?? '', context);
    definition?.oneditprepare.call({ ...node, _: say });
  }

  /** The element with that selector (`#id`), as the dialog's script sees it. */
  element(selector: string): DialogElement {
    return this.#find(selector);
  }

  click(selector: string): void {
    this.#find(selector).trigger('click');
  }

  #find(what: string | Element): Element {
    if (what instanceof Element) return what;
    if (what.startsWith('<')) return new Element();
    let element = this.#elements.get(what);
    if (!element) this.#elements.set(what, (element = new Element()));
    return element;
  }
}

/** One element of the stand-in: a value, a text, handlers and children, and nothing drawn. */
class Element implements DialogElement {
  #value = '';
  #text = '';
  readonly #handlers = new Map<string, (this: Element) => void>();
  readonly #data = new Map<string, unknown>();

  val(value?: string): string | Element {
    if (value === undefined) return this.#value;
    this.#value = value;
    return this;
  }

  text(value?: string): string | Element {
    if (value === undefined) return this.#text;
    this.#text = value;
    return this;
  }

  html(): string {
    return this.#text;
  }

  on(event: string, handler: (this: Element) => void): Element {
    this.#handlers.set(event, handler);
    return this;
  }

  trigger(event: string): Element {
    this.#handlers.get(event)?.call(this);
    return this;
  }

  data(key: string, value?: unknown): unknown {
    if (value === undefined) return this.#data.get(key);
    this.#data.set(key, value);
    return this;
  }

  // Drawing and choosing: nothing a test of what the dialog asks and says reads back.
  prop(): Element {
    return this;
  }

  show(): Element {
    return this;
  }

  empty(): Element {
    return this;
  }

  append(): Element {
    return this;
  }

  appendTo(): Element {
    return this;
  }

  find(): Element {
    return new Element();
  }
}

/** `$.getJSON` against the runtime's admin endpoints, answering as jQuery's promise does. */
function askRuntime(path: string, query: Record<string, string>) {
  // Asked once, however many callbacks wait for it.
  const answer = Promise.resolve(helper.request().get(`/${path}`).query(query));
  return {
    done(use: (body: unknown) => void) {
      void answer.then((reply) => reply.status < 400 && use(reply.body));
      return this;
    },
    // As jQuery does, a request that got no answer fails too (with its reason as the status text).
    fail(use: (xhr: { responseJSON?: unknown; statusText: string }) => void) {
      void answer.then(
        (reply) => reply.status >= 400 && use({ responseJSON: reply.body, statusText: String(reply.status) }),
        (error: unknown) => use({ statusText: String(error) }),
      );
      return this;
    },
  };
}

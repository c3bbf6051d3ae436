import { RAW_REQUEST_ID } from '../gen/deck-events.js';
import type { FakeStreamDeck, Json, PluginCommand } from './deck.js';
import { isClearMessage } from '../report/clear-error.js';

export interface InspectorBalance {
  /** Dropdown items, or the connection line of a server that answered. */
  answered: number;
  /** A refusal in words: an unknown request, no server, a server that did not answer. */
  refused: number;
  unanswered: number;
  /** Answers beyond the requests. */
  extra: number;
  /** Answers that are neither, quoted. */
  unclear: string[];
}

/**
 * Requests from property inspectors and the plugin's answers: each must get one answer, with dropdown items,
 * a connection line or an error in words (apps/streamdeck's inspector-requests.ts). The plugin answers only
 * the inspector that asked while it is still open, so a request still pending when another key's inspector
 * opens is owed nothing; answers are counted per key.
 */
export class InspectorRequests {
  #asked = 0;
  #open: string | undefined;
  /** Per key: requests asked, and those excused because the operator moved to another key's inspector. */
  readonly #byKey = new Map<string, { asked: number; excused: number }>();
  /** The sequence number of the last answer before this started. */
  readonly #since: number;

  constructor(private readonly deck: FakeStreamDeck) {
    this.#since = deck.sent('sendToPropertyInspector').at(-1)?.seq ?? -1;
  }

  /** Opens the key's inspector, as the app does when the key is selected, and sends its request. */
  ask(context: string, payload: Json): void {
    if (this.#open !== undefined && this.#open !== context) this.#excusePending(this.#open);
    this.#open = context;
    this.#asked++;
    this.#key(context).asked++;
    this.deck.inspectorAppear(context);
    this.deck.sendToPlugin(context, payload);
  }

  get asked(): number {
    return this.#asked;
  }

  /** Waits (up to `timeoutMs`) until every request owed an answer has one, then sorts the answers. */
  async settle(timeoutMs: number): Promise<InspectorBalance> {
    const deadline = Date.now() + timeoutMs;
    while (this.#owed().unanswered > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const balance: InspectorBalance = { answered: 0, refused: 0, ...this.#owed(), unclear: [] };
    for (const { payload } of this.#answers()) {
      const kind = kindOf(payload);
      if (kind === 'unclear') balance.unclear.push(JSON.stringify(payload).slice(0, 200));
      else balance[kind]++;
    }
    return balance;
  }

  #key(context: string): { asked: number; excused: number } {
    let key = this.#byKey.get(context);
    if (!key) this.#byKey.set(context, (key = { asked: 0, excused: 0 }));
    return key;
  }

  #excusePending(context: string): void {
    const key = this.#key(context);
    key.excused += Math.max(0, key.asked - key.excused - this.#answers(context).length);
  }

  /** Requests owed an answer that has not come, and answers beyond the requests, over all keys. */
  #owed(): { unanswered: number; extra: number } {
    let unanswered = 0;
    let extra = 0;
    for (const [context, { asked, excused }] of this.#byKey) {
      const answers = this.#answers(context).length;
      unanswered += Math.max(0, asked - excused - answers);
      extra += Math.max(0, answers - asked);
    }
    return { unanswered, extra };
  }

  /** Answers since this started (to one key's inspector if given), but not those to the raw frame the generator sends past the inspector. */
  #answers(context?: string): PluginCommand[] {
    return this.deck
      .sent('sendToPropertyInspector', context)
      .filter((command) => command.seq > this.#since && (command.payload as { requestId?: unknown } | null)?.requestId !== RAW_REQUEST_ID);
  }
}

function kindOf(payload: Json | undefined): 'answered' | 'refused' | 'unclear' {
  const answer = (typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : {}) as Record<string, Json>;
  if (Array.isArray(answer.items)) return 'answered';
  if (typeof answer.state === 'string' && isClearMessage(answer.message)) return answer.state === 'online' ? 'answered' : 'refused';
  if (isClearMessage(answer.error)) return 'refused';
  return 'unclear';
}

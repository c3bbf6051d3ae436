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
 * a connection line or an error in words (apps/streamdeck's inspector-requests.ts). The SDK sends an answer to
 * the inspector open at that moment, so answers are counted over all keys, not per key.
 */
export class InspectorRequests {
  #asked = 0;
  readonly #answersBefore: number;

  constructor(private readonly deck: FakeStreamDeck) {
    this.#answersBefore = deck.sent('sendToPropertyInspector').length;
  }

  /** Opens the key's inspector, as the app does when the key is selected, and sends its request. */
  ask(context: string, payload: Json): void {
    this.#asked++;
    this.deck.inspectorAppear(context);
    this.deck.sendToPlugin(context, payload);
  }

  get asked(): number {
    return this.#asked;
  }

  /** Waits (up to `timeoutMs`) until every request has an answer, then sorts the answers. */
  async settle(timeoutMs: number): Promise<InspectorBalance> {
    const deadline = Date.now() + timeoutMs;
    while (this.#answers().length < this.#asked && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const answers = this.#answers();
    const balance: InspectorBalance = { answered: 0, refused: 0, unanswered: Math.max(0, this.#asked - answers.length), extra: Math.max(0, answers.length - this.#asked), unclear: [] };
    for (const { payload } of answers) {
      const kind = kindOf(payload);
      if (kind === 'unclear') balance.unclear.push(JSON.stringify(payload).slice(0, 200));
      else balance[kind]++;
    }
    return balance;
  }

  /** Answers since this started, but not those to the raw frame the generator sends past the inspector. */
  #answers(): PluginCommand[] {
    return this.deck
      .sent('sendToPropertyInspector')
      .slice(this.#answersBefore)
      .filter((command) => (command.payload as { requestId?: unknown } | null)?.requestId !== RAW_REQUEST_ID);
  }
}

function kindOf(payload: Json | undefined): 'answered' | 'refused' | 'unclear' {
  const answer = (typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : {}) as Record<string, Json>;
  if (Array.isArray(answer.items)) return 'answered';
  if (typeof answer.state === 'string' && isClearMessage(answer.message)) return answer.state === 'online' ? 'answered' : 'refused';
  if (isClearMessage(answer.error)) return 'refused';
  return 'unclear';
}

/**
 * Which subscription a live-update `error` frame is about. Frames carry no request id, and a director that
 * answers late (a project loading) answers after the next request went out, so timing cannot tell. Real
 * servers name the pair in the text (`Unable to subscribe to OBJECT / PROPERTY - reason`, `Unable to set
 * OBJECT / PROPERTY - reason`) or an id (`no subscription with id 5`). Objects and properties may themselves
 * contain " / " and " - ", so the message is never split: a pair is named when its whole text appears in it.
 */

export interface NamedPair {
  object: string;
  property: string;
}

/** The pair whose `OBJECT / PROPERTY` text the message contains; the longest such text when several do. */
export function pairNamedIn<Pair extends NamedPair>(message: string, pairs: Iterable<Pair>): Pair | undefined {
  let best: { pair: Pair; length: number } | undefined;
  for (const pair of pairs) {
    const text = `${pair.object} / ${pair.property}`;
    if (message.includes(text) && text.length > (best?.length ?? -1)) best = { pair, length: text.length };
  }
  return best?.pair;
}

/** The subscription id a message names (`id 5`, `id: 5`, `id=5`), if any. */
export function idNamedIn(message: string): number | undefined {
  const match = /\bid\s*[:=]?\s*(\d+)\b/i.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** A refused write: never a reason to fail a subscription. */
export function isWriteRefusal(message: string): boolean {
  return /^\s*unable to set\b/i.test(message);
}

/** A refused subscribe whose object does not exist yet: the project may still be loading. */
export function isObjectNotLoaded(message: string): boolean {
  return /unable to find object/i.test(message);
}

/**
 * The server lost the frame it answers: shipping directors answer a frame that came right behind another with
 * "Invalid JSON", whatever it held. It says nothing of any subscription.
 */
export function isDroppedFrame(message: string): boolean {
  return /^\s*invalid json\s*$/i.test(message);
}

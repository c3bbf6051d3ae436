/** Where a layer sits, in the layer's own units. */
export interface LayerPosition {
  x: number;
  y: number;
}

/**
 * The layers the live stream can read and write (`layer:"<name>"`, `object.position`). The session model has no
 * layers; these exist for the stream only, one set per session, so a reset starts them again.
 */
export class LiveLayers {
  // Values a 32-bit float holds exactly, so they read back as written here.
  readonly #positions = new Map<string, LayerPosition>([
    ['Backdrop', { x: 0, y: 0 }],
    ['Logo', { x: 0.75, y: 0.125 }],
  ]);

  names(): string[] {
    return [...this.#positions.keys()];
  }

  /** A copy of the layer's position; undefined when there is no such layer. */
  position(name: string): LayerPosition | undefined {
    const position = this.#positions.get(name);
    return position && { ...position };
  }

  setPosition(name: string, position: LayerPosition): void {
    if (this.#positions.has(name)) this.#positions.set(name, { x: position.x, y: position.y });
  }
}

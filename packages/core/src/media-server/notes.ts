import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef, refQuery } from './input-checks.js';
import type { Note, Ref } from './types.js';

export class NotesApi {
  constructor(private readonly api: EndpointCaller) {}

  async get(note: Ref, options?: CallOptions): Promise<Note> {
    return this.api.call(endpoints.getNote, { query: refQuery(note, 'note') }, options);
  }

  /** Creates the note or replaces its text. */
  async set(request: { note: Ref; text: string }, options?: CallOptions): Promise<Note> {
    return this.api.call(endpoints.setNote, { body: { note: checkRef(request.note, 'note'), text: request.text } }, options);
  }

  /** Named notes, `count` of them from index `start`. */
  async list(range: { start?: number; count?: number } = {}, options?: CallOptions): Promise<Note[]> {
    return this.api.call(endpoints.listNotes, { query: { start: range.start, count: range.count } }, options);
  }
}

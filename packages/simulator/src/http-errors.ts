/**
 * The request itself cannot be used: invalid JSON, or a body or query of the wrong shape (a missing field, a
 * wrong type). Answered with HTTP 400 in every family.
 */
export class BadRequest extends Error {
  override name = 'BadRequest';
}

/** A hardware write before any login (docs/api-notes.md, Hardware): HTTP 401 `{message}` in the dialect's words. */
export class LoginRequired extends Error {
  override name = 'LoginRequired';

  constructor() {
    super('login required');
  }
}

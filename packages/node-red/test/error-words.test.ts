import { AbortedError, ConnectionError, LateAnswerError, LOG_EVENT_CODES, StagelinkError, StatusError, TimeoutError } from '@stagelink/core';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { inRuntimeLanguage, sayError } from '../src/shared/error-words.js';
import { sayLogEvent } from '../src/shared/log-words.js';
import { useRuntime } from '../src/shared/words.js';
import { catalogOf, runtimeIn } from './support/runtime-words.js';

const PLAY = { method: 'POST', url: 'http://10.0.0.5/api/session/transport/play' };

function refused(): ConnectionError {
  const system = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:80'), { code: 'ECONNREFUSED' });
  return new ConnectionError(`Could not reach 10.0.0.5 for POST ${PLAY.url} (ECONNREFUSED): check the address and that the server is running.`, PLAY, {
    cause: system,
    mayHaveReachedServer: false,
  });
}

const errorTexts = (language: string): Record<string, string> => (catalogOf(language)['stagelink-server'] as Record<string, Record<string, string>>)['errorText'] ?? {};

describe('core failures in the runtime language', () => {
  it('hands core\'s own error on unchanged in an English runtime', () => {
    const error = refused();
    expect(inRuntimeLanguage(error)).toBe(error);
    expect(sayError(error)).toBe(error.message);
    expect(inRuntimeLanguage('nope').message).toBe('stagelink: nope');
  });

  it('words every kind of core failure in German, and each en-US one as core\'s own message', () => {
    const german = errorTexts('de');
    const english = errorTexts('en-US');
    const summaries = Object.keys((catalogOf('en-US')['stagelink-server'] as Record<string, Record<string, string>>)['summary'] ?? {}).filter((key) => key.startsWith('STAGELINK_ERR'));
    expect(summaries.length).toBeGreaterThan(15);
    for (const code of summaries) {
      expect(english[code], code).toBe('__message__');
      expect(german[code], code).toBeDefined();
      expect(german[code], code).not.toBe('__message__');
    }
  });

  it('has German words for every failure code core raises', async () => {
    const sources = await Promise.all(['errors.ts', 'drive/errors.ts'].map((file) => readFile(new URL(`../../core/src/${file}`, import.meta.url), 'utf8')));
    const codes = [...new Set(sources.join('\n').match(/'STAGELINK_ERR_[A-Z_]+'/g))].map((quoted) => quoted.slice(1, -1));
    expect(codes.length).toBeGreaterThan(15);
    const german = errorTexts('de');
    expect(codes.filter((code) => german[code] === undefined)).toEqual([]);
  });

  it('says in German what failed, where and why, keeping the error\'s class, code, fields and core\'s words as its cause', () => {
    useRuntime(runtimeIn('de'));
    const original = refused();
    const worded = inRuntimeLanguage(original) as ConnectionError;
    expect(worded.message).toBe(
      `POST ${PLAY.url}: nicht gesendet: der Server ist nicht erreichbar (ECONNREFUSED). Prüfe die Adresse, das Netz und ob der Server läuft, und sende den Befehl erneut, sobald er antwortet.`,
    );
    expect(worded).toBeInstanceOf(ConnectionError);
    expect(worded).toMatchObject({ name: 'ConnectionError', code: 'STAGELINK_ERR_CONNECTION', mayHaveReachedServer: false, method: 'POST', url: PLAY.url });
    // Node-RED hands a Catch node the error's own `code`, `stack` and `cause`.
    expect(Object.hasOwn(worded, 'code')).toBe(true);
    expect(worded.cause).toBe(original);
    expect(worded.stack?.split('\n')[0]).toBe(`ConnectionError: ${worded.message}`);
    expect(Error.prototype.toString.call(worded)).toBe(`ConnectionError: ${worded.message}`);
  });

  it('names the server\'s reason for a refusal, and says when it gave none', () => {
    const reason = 'Transport speed control is disabled.';
    expect(sayError(new StatusError(`refused: ${reason}`, 1000, [], PLAY, reason))).toBe(`POST ${PLAY.url}: vom Server abgelehnt: ${reason} (Statuscode 1000).`);
    expect(sayError(new StatusError('refused', 5, [], PLAY))).toBe(`POST ${PLAY.url}: vom Server abgelehnt: kein Grund angegeben (Statuscode 5).`);
  });

  it('gives deadlines in seconds, and starts a sentence with a capital where no request leads it', () => {
    expect(sayError(new TimeoutError('late', 8000, PLAY))).toMatch(/^POST \S+: keine Antwort innerhalb von 8 s\. /);
    expect(sayError(new LateAnswerError('late', 'landed', 2500, PLAY))).toMatch(/innerhalb von 2\.5 s, doch der Transport zeigt/);
    const unsent = new ConnectionError('The cue to main was not sent.', undefined, { cause: refused(), mayHaveReachedServer: false });
    expect(sayError(unsent)).toMatch(/^Nicht gesendet: der Server ist nicht erreichbar \(ECONNREFUSED\)\./);
  });

  it('tells a request aborted before it left from one aborted while its answer was awaited', () => {
    expect(sayError(new AbortedError('aborted', PLAY))).toBe(`POST ${PLAY.url}: abgebrochen, bevor die Antwort kam.`);
    expect(sayError(new AbortedError('cancelled', PLAY, { mayHaveReachedServer: false }))).toBe(`POST ${PLAY.url}: abgebrochen, bevor er gesendet wurde: er hat den Server nicht erreicht.`);
  });

  it('keeps the message of a failure it has no words for', () => {
    expect(sayError(new StagelinkError('Something else.'))).toBe('Something else.');
    const plain = new Error('disk full');
    expect(inRuntimeLanguage(plain)).toBe(plain);
  });
});

describe('core warnings in the runtime language', () => {
  it('has words for every warning core logs: core\'s own message in en-US, German words in de', () => {
    const coreLog = (language: string): Record<string, string> => ((catalogOf(language)['stagelink-server'] as Record<string, Record<string, Record<string, string>>>)['log'] ?? {})['core'] ?? {};
    expect(Object.keys(coreLog('en-US')).sort()).toEqual([...LOG_EVENT_CODES].sort());
    for (const code of LOG_EVENT_CODES) {
      expect(coreLog('en-US')[code], code).toBe('__message__');
      expect(coreLog('de')[code], code).not.toMatch(/^(__message__)?$/);
    }
  });

  it('words a warning from its facts and the failure behind it, and keeps a warning it has no event for', () => {
    useRuntime(runtimeIn('de'));
    expect(sayLogEvent('The director of the session is now B.', { code: 'DIRECTOR_MOVED', facts: { hostname: 'UNDERSTUDY01', url: 'http://10.0.0.7', previous: 'DIRECTOR01' } })).toBe(
      'Der Director der Session ist jetzt UNDERSTUDY01 (http://10.0.0.7); ihm wird gefolgt.',
    );
    const unreachable = sayLogEvent('cannot be reached by its name', { code: 'DIRECTOR_UNREACHABLE_BY_NAME', facts: { hostname: 'DIRECTOR01', reason: 'ENOTFOUND', namedBy: 'http://10.0.0.5' }, error: refused() });
    expect(unreachable).toMatch(/^Der Director DIRECTOR01 ist von hier aus unter seinem Namen nicht erreichbar; http:\/\/10\.0\.0\.5 antwortet als Director/);
    expect(sayLogEvent('show clock of "main": late', { code: 'SHOW_CLOCK_PROBLEM', facts: { transport: '"main"', reason: 'late' }, error: new TimeoutError('late', 8000, PLAY) })).toMatch(
      /^Show-Uhr von "main": POST \S+: keine Antwort innerhalb von 8 s\./,
    );
    expect(sayLogEvent('a warning of its own')).toBe('a warning of its own');
  });
});

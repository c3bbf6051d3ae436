import { describe, expect, it } from 'vitest';
import { LOG_LINE_MAX, pluginLogger, type SdkLogger } from '../../src/logging.js';

/** Records lines as the SDK's logger writes them: `LEVEL scope: message`. */
function recordingSdkLogger(lines: string[], scope = ''): SdkLogger {
  const write = (level: string) => (message: string) => lines.push(`${level} ${scope ? `${scope}: ` : ''}${message}`);
  return {
    debug: write('DEBUG'),
    info: write('INFO'),
    warn: write('WARN'),
    error: write('ERROR'),
    createScope: (name) => recordingSdkLogger(lines, scope ? `${scope}->${name}` : name),
  };
}

describe('the plugin log', () => {
  it('keeps a line about a name of a million characters to a readable length, saying how much it left out', () => {
    const lines: string[] = [];
    const name = 'x'.repeat(1_000_000);
    pluginLogger(recordingSdkLogger(lines)).scope(name).warn(`No transport ${name} on 10.0.0.5`);
    const [line = ''] = lines;
    expect(lines).toHaveLength(1);
    expect(line.length).toBeLessThan(2 * LOG_LINE_MAX + 200);
    expect(line).toMatch(/^WARN x+… \(998000 more characters left out\): No transport x+… \(998025 more characters left out\)$/);
  });

  it('says which action or server each line is about', () => {
    const lines: string[] = [];
    const logger = pluginLogger(recordingSdkLogger(lines));
    logger.info('started');
    logger.scope('transport').warn('key press failed: no media server set');
    logger.scope('server 10.0.0.5').debug?.('GET /api/session/status/health');
    logger.scope('server 10.0.0.5').scope('live').error('closed');
    expect(lines).toEqual([
      'INFO started',
      'WARN transport: key press failed: no media server set',
      'DEBUG server 10.0.0.5: GET /api/session/status/health',
      'ERROR server 10.0.0.5->live: closed',
    ]);
  });
});

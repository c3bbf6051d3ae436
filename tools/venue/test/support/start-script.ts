import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const START_SCRIPT = fileURLToPath(new URL('../../start.mjs', import.meta.url));

/** `pnpm start`'s script running in its own process group, with the addresses it printed. */
export interface StartScript {
  editorUrl: string;
  /** The show-monitor dashboard's page. */
  dashboardUrl: string;
  mediaServerUrl: string;
  child: ChildProcess;
  /** Everything it printed so far, for failure messages. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether any process of its group (the script or a child it started) is still alive. */
  groupAlive(): boolean;
  /** Ends whatever of the group is left; for clean-up after a failed test. */
  kill(): void;
}

/**
 * Runs start.mjs with `args` (and `env`) as a user runs it, and resolves once it has printed the editor,
 * dashboard and media-server addresses. Rejects (after ending it) if it exits first or prints nothing within `timeoutMs`.
 */
export function runStartScript(args: string[], timeoutMs = 90_000, env: NodeJS.ProcessEnv = process.env): Promise<StartScript> {
  // Its own process group, so that a Node-RED it leaves behind can be found (and ended) by the group id.
  const child = spawn(process.execPath, [START_SCRIPT, ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  const pid = child.pid;
  if (pid === undefined) throw new Error('The start script did not start.');
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const groupAlive = (): boolean => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const kill = (): void => {
    if (groupAlive()) process.kill(-pid, 'SIGKILL');
  };
  const script: Omit<StartScript, 'editorUrl' | 'dashboardUrl' | 'mediaServerUrl'> = { child, output: () => output, exited, groupAlive, kill };

  return new Promise((resolve, reject) => {
    let ready = false;
    const fail = (reason: string): void => {
      if (ready) return;
      clearTimeout(timer);
      kill();
      reject(new Error(`${reason}\n--- its output ---\n${output}`));
    };
    const timer = setTimeout(() => fail(`The start script printed no editor address within ${timeoutMs} ms.`), timeoutMs);
    void exited.then(({ code, signal }) => fail(`The start script exited (code ${code}, signal ${signal}) before it was ready.`));
    const watch = (): void => {
      const editor = /Node-RED editor\s+(http:\/\/\S+?)\/?\s/.exec(output);
      const dashboard = /dashboard\s+(http:\/\/\S+)/.exec(output);
      const mediaServer = /media server\s+(http:\/\/\S+)/.exec(output);
      if (!editor?.[1] || !dashboard?.[1] || !mediaServer?.[1]) return;
      ready = true;
      clearTimeout(timer);
      child.stdout?.off('data', watch);
      resolve({ ...script, editorUrl: editor[1], dashboardUrl: dashboard[1], mediaServerUrl: mediaServer[1] });
    };
    child.stdout?.on('data', watch);
  });
}

import { startHttpServer, type RunningHttpServer } from './http-server.js';
import { createMediaServerApp, type MediaServerAppOptions, type SmcAccount } from './media-server-app.js';

/** The demo account of every simulated management controller. */
export const SMC_ACCOUNT: SmcAccount = { username: 'admin', password: 'stagelink-demo' };

/**
 * A machine's management controller (SMC), as shipping machines have one on the management network: a listener
 * of its own, on the machine's address and a free port, serving only the hardware family, writes with the demo
 * account as HTTP Basic. It keeps answering while the machine's API server is stopped, as an SMC does.
 */
export function startManagementController(
  host: string,
  app: Omit<MediaServerAppOptions, 'serves' | 'account' | 'refuse'>,
  machine?: string,
): Promise<RunningHttpServer> {
  const handle = createMediaServerApp({ ...app, serves: 'hardware', account: SMC_ACCOUNT, ...(machine === undefined ? {} : { machine }) });
  return startHttpServer({ host, port: 0, handle, log: app.log });
}

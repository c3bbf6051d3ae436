// The MQTT side of `pnpm start`: a Mosquitto broker of its own on a free port (never the system service) and a
// stagelink bridge publishing the simulated session to it. Nothing when Mosquitto is not installed.
import { startBridge } from '@stagelink/bridge';
import { MOSQUITTO, startMosquitto } from '@stagelink/bridge/testing';

/**
 * Resolves undefined when Mosquitto is missing; `close()` stops the bridge, then the broker. With `record`, the
 * bridge writes the show log into that folder, as `--record` does.
 */
export async function startVenueBridge(server, { record } = {}) {
  if (!MOSQUITTO) return undefined;
  const broker = await startMosquitto();
  try {
    const bridge = await startBridge({ server, mqtt: broker.url, followDirector: true, ...(record ? { record } : {}) });
    let closed;
    return {
      broker: broker.url,
      port: broker.port,
      prefix: bridge.topics.prefix,
      close: () => (closed ??= bridge.close().finally(() => broker.close())),
    };
  } catch (error) {
    await broker.close();
    throw error;
  }
}

/**
 * What `<prefix>/bridge` says, retained: plain text, as Home Assistant's availability and most dashboards read it
 * without a template. `offline` is also the bridge's Last Will.
 */
export const BRIDGE_ONLINE = 'online';
export const BRIDGE_OFFLINE = 'offline';

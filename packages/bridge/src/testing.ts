/** Helpers for tests and benchmarks that need a real broker: `@stagelink/bridge/testing`. */
export { MOSQUITTO, MOSQUITTO_MISSING, startMosquitto, type BrokerAccount, type Mosquitto, type MosquittoOptions } from './testing/mosquitto.js';

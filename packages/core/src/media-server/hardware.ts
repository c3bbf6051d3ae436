import { InvalidInputError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { endpoints, OLED_MAX_MESSAGE_LENGTH } from './catalogue.js';
import type { CallOptions, EndpointCaller, GuardedCallOptions } from './endpoint-caller.js';
import { checkNumber, checkText, shown } from './input-checks.js';
import type {
  HardwareMessage,
  LedStrip,
  LocalMachine,
  NetworkAdapter,
  OledNotification,
  OledNotificationResult,
  PowerStatus,
  SessionRole,
  VideoFormattingCard,
} from './types.js';

/** What the hardware groups send through: one machine's caller, or one that refuses writes (see MediaServer.hardware). */
export type HardwareCaller = Pick<EndpointCaller, 'call'>;

/** The hardware family: plain HTTP statuses, and writes answer 401 (AuthError) until a login is made. */
export class HardwareApi {
  readonly smc: SmcApi;
  readonly vfcs: VfcsApi;
  readonly localMachine: LocalMachineApi;
  readonly sessionRole: SessionRoleApi;
  readonly networkAdapters: NetworkAdaptersApi;
  readonly chassis: ChassisApi;
  readonly oled: OledApi;
  readonly ledStrip: LedStripApi;

  constructor(api: HardwareCaller, logger: Logger) {
    this.smc = new SmcApi(api);
    this.vfcs = new VfcsApi(api);
    this.localMachine = new LocalMachineApi(api);
    this.sessionRole = new SessionRoleApi(api);
    this.networkAdapters = new NetworkAdaptersApi(api);
    this.chassis = new ChassisApi(api);
    this.oled = new OledApi(api, logger);
    this.ledStrip = new LedStripApi(api);
  }
}

export class SmcApi {
  constructor(private readonly api: HardwareCaller) {}

  async get(options?: CallOptions): Promise<Record<string, string>> {
    return this.api.call(endpoints.smcStatus, {}, options);
  }

  async set(values: Record<string, string>, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.smcSet, { body: values }, options);
  }

  /** Erases the SMC database, user accounts included. No undo: needs `{ confirm: true }`. */
  async clearAll(options: GuardedCallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.smcClearAll, {}, options);
  }

  /** Permits a downgrade below the permitted version; may cause an unrecoverable error. Needs `{ confirm: true }`. */
  async enableDowngrade(options: GuardedCallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.smcEnableDowngrade, {}, options);
  }
}

export class VfcsApi {
  constructor(private readonly api: HardwareCaller) {}

  async list(options?: CallOptions): Promise<VideoFormattingCard[]> {
    return this.api.call(endpoints.vfcsList, {}, options);
  }

  /** Replaces the whole list. */
  async replace(cards: readonly VideoFormattingCard[], options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.vfcsReplace, { body: cards }, options);
  }
}

export class LocalMachineApi {
  constructor(private readonly api: HardwareCaller) {}

  async get(options?: CallOptions): Promise<LocalMachine> {
    return this.api.call(endpoints.localMachineGet, {}, options);
  }

  async set(machine: LocalMachine, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.localMachineSet, { body: machine }, options);
  }
}

export class SessionRoleApi {
  constructor(private readonly api: HardwareCaller) {}

  async get(options?: CallOptions): Promise<SessionRole> {
    return this.api.call(endpoints.sessionRoleGet, {}, options);
  }

  async set(role: SessionRole, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.sessionRoleSet, { body: role }, options);
  }
}

export class NetworkAdaptersApi {
  constructor(private readonly api: HardwareCaller) {}

  async list(options?: CallOptions): Promise<NetworkAdapter[]> {
    return this.api.call(endpoints.networkAdaptersList, {}, options);
  }

  async replace(adapters: readonly NetworkAdapter[], options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.networkAdaptersReplace, { body: adapters }, options);
  }

  /** One adapter by MAC (`00-1A-2B-3C-4D-5E`); NotFoundError when no adapter has it. */
  async get(mac: string, options?: CallOptions): Promise<NetworkAdapter> {
    return this.api.call(endpoints.networkAdapterGet, { params: { mac } }, options);
  }

  async update(mac: string, adapter: NetworkAdapter, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.networkAdapterUpdate, { params: { mac }, body: adapter }, options);
  }
}

export class ChassisApi {
  constructor(private readonly api: HardwareCaller) {}

  /** Power cycles through IPMI without a graceful OS shutdown. Needs `{ confirm: true }`. */
  async powerCycle(options: GuardedCallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.powerCycle, {}, options);
  }

  /** Turns the machine off through IPMI without a graceful OS shutdown. Needs `{ confirm: true }`. */
  async powerOff(options: GuardedCallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.powerOff, {}, options);
  }

  async powerOn(options?: CallOptions): Promise<unknown> {
    return this.api.call(endpoints.powerOn, {}, options);
  }

  async powerStatus(options?: CallOptions): Promise<PowerStatus> {
    return readPowerStatus(await this.api.call(endpoints.powerStatus, {}, options));
  }

  /** Fan speeds, temperatures and power flags, all as strings. */
  async stats(options?: CallOptions): Promise<Record<string, string>> {
    return this.api.call(endpoints.chassisStats, {}, options);
  }

  /** Blinks the OLED screen and the rear LED strip. */
  async whoami(options?: CallOptions): Promise<unknown> {
    return this.api.call(endpoints.whoami, {}, options);
  }
}

export interface OledResult extends OledNotificationResult {
  /** True when the message was cut to the device's 200 characters. */
  truncated: boolean;
}

export class OledApi {
  constructor(
    private readonly api: HardwareCaller,
    private readonly logger: Logger,
  ) {}

  /** Shows a notification on the front screen. Messages over 200 characters are cut, as the device does. */
  async notify(notification: OledNotification, options?: CallOptions): Promise<OledResult> {
    // Counted in characters (code points), as the device counts: never cut an emoji in half.
    const characters = [...checkText(notification.message, 'OLED message')];
    const truncated = characters.length > OLED_MAX_MESSAGE_LENGTH;
    if (truncated) {
      this.logger.warn(`OLED message of ${characters.length} characters cut to ${OLED_MAX_MESSAGE_LENGTH}, as the device would.`, {
        code: 'OLED_MESSAGE_CUT',
        facts: { length: String(characters.length), max: String(OLED_MAX_MESSAGE_LENGTH) },
      });
    }
    const priority = notification.priority ?? 0;
    if (!OLED_PRIORITIES.includes(priority)) throw new InvalidInputError(`OLED priority must be 0, 1 or 2 (got ${shown(priority)}).`);
    const body = { priority, title: notification.title ?? '', message: characters.slice(0, OLED_MAX_MESSAGE_LENGTH).join('') };
    const result = await this.api.call<OledNotificationResult>(endpoints.oledNotify, { body }, options);
    return { ...result, truncated };
  }

  /** Sets how many seconds a notification stays on screen (10 by default). */
  async setDisplayTime(seconds: number, options?: CallOptions): Promise<OledNotificationResult> {
    if (checkNumber(seconds, 'display time') <= 0) throw new InvalidInputError(`OLED display time must be above 0 seconds (got ${seconds}).`);
    return this.api.call(endpoints.oledDisplayTime, { body: { time: seconds } }, options);
  }
}

export class LedStripApi {
  constructor(private readonly api: HardwareCaller) {}

  async get(options?: CallOptions): Promise<LedStrip> {
    return this.api.call(endpoints.ledStripGet, {}, options);
  }

  async set(strip: LedStrip, options?: CallOptions): Promise<HardwareMessage> {
    if (!LED_STRIP_MODES.includes(strip?.ledMode)) throw new InvalidInputError(`LED strip mode must be one of ${LED_STRIP_MODES.join(', ')} (got ${shown(strip?.ledMode)}).`);
    const channel = (value: unknown, name: string): number => {
      const level = checkNumber(value, name);
      if (!Number.isInteger(level) || level < 0 || level > 255) throw new InvalidInputError(`${name} must be a whole number from 0 to 255 (got ${level}).`);
      return level;
    };
    const body = { ledMode: strip.ledMode, ledR: channel(strip.ledR, 'ledR'), ledG: channel(strip.ledG, 'ledG'), ledB: channel(strip.ledB, 'ledB') };
    return this.api.call(endpoints.ledStripSet, { body }, options);
  }
}

const OLED_PRIORITIES: readonly unknown[] = [0, 1, 2];
const LED_STRIP_MODES: readonly unknown[] = ['static', 'colour_id', 'rainbow'];

const POWER_FLAGS = {
  'Power Overload': 'powerOverload',
  'Main Power Fault': 'mainPowerFault',
  'Power Control Fault': 'powerControlFault',
} as const;

/** Power flags from either answer shape; booleans arrive as booleans or as `"true"` / `"false"`. */
export function readPowerStatus(answer: unknown): PowerStatus {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const status: PowerStatus = {};
  if (typeof body['message'] === 'string') status.message = body['message'];
  // The documents' Message says it in words: "Chassis Power is on".
  const power = typeof body['System Power'] === 'string' ? body['System Power'].toLowerCase() : /\bpower is (on|off)\b/i.exec(status.message ?? '')?.[1]?.toLowerCase();
  if (power === 'on' || power === 'off') status.systemPower = power;
  for (const [key, field] of Object.entries(POWER_FLAGS)) {
    const flag = body[key];
    if (typeof flag === 'boolean') status[field] = flag;
    else if (flag === 'true' || flag === 'false') status[field] = flag === 'true';
  }
  return status;
}

/**
 * Whether the SMC reports a power fault: true when any fault flag is set, false when it reports them all clear,
 * undefined when it reports none of them (the documents' answer says only on or off): unknown, not healthy.
 */
export function powerFaultOf(status: PowerStatus): boolean | undefined {
  const flags = Object.values(POWER_FLAGS).map((field) => status[field]);
  if (flags.some((flag) => flag === true)) return true;
  return flags.some((flag) => flag === false) ? false : undefined;
}

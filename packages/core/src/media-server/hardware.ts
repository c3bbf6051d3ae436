import { InvalidInputError } from '../errors.js';
import type { Logger } from '../http/logger.js';
import { endpoints, OLED_MAX_MESSAGE_LENGTH } from './catalogue.js';
import type { CallOptions, EndpointCaller, GuardedCallOptions } from './endpoint-caller.js';
import { checkNumber, checkText } from './input-checks.js';
import type {
  HardwareMessage,
  LocalMachine,
  NetworkAdapter,
  OledNotification,
  OledNotificationResult,
  SessionRole,
  VideoFormattingCard,
} from './types.js';

/** The hardware family: plain HTTP statuses, and writes answer 401 (AuthError) until a login is made. */
export class HardwareApi {
  readonly smc: SmcApi;
  readonly vfcs: VfcsApi;
  readonly localMachine: LocalMachineApi;
  readonly sessionRole: SessionRoleApi;
  readonly networkAdapters: NetworkAdaptersApi;
  readonly chassis: ChassisApi;
  readonly oled: OledApi;

  constructor(api: EndpointCaller, logger: Logger) {
    this.smc = new SmcApi(api);
    this.vfcs = new VfcsApi(api);
    this.localMachine = new LocalMachineApi(api);
    this.sessionRole = new SessionRoleApi(api);
    this.networkAdapters = new NetworkAdaptersApi(api);
    this.chassis = new ChassisApi(api);
    this.oled = new OledApi(api, logger);
  }
}

export class SmcApi {
  constructor(private readonly api: EndpointCaller) {}

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
  constructor(private readonly api: EndpointCaller) {}

  async list(options?: CallOptions): Promise<VideoFormattingCard[]> {
    return this.api.call(endpoints.vfcsList, {}, options);
  }

  /** Replaces the whole list. */
  async replace(cards: readonly VideoFormattingCard[], options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.vfcsReplace, { body: cards }, options);
  }
}

export class LocalMachineApi {
  constructor(private readonly api: EndpointCaller) {}

  async get(options?: CallOptions): Promise<LocalMachine> {
    return this.api.call(endpoints.localMachineGet, {}, options);
  }

  async set(machine: LocalMachine, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.localMachineSet, { body: machine }, options);
  }
}

export class SessionRoleApi {
  constructor(private readonly api: EndpointCaller) {}

  async get(options?: CallOptions): Promise<SessionRole> {
    return this.api.call(endpoints.sessionRoleGet, {}, options);
  }

  async set(role: SessionRole, options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.sessionRoleSet, { body: role }, options);
  }
}

export class NetworkAdaptersApi {
  constructor(private readonly api: EndpointCaller) {}

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
  constructor(private readonly api: EndpointCaller) {}

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

  async powerStatus(options?: CallOptions): Promise<HardwareMessage> {
    return this.api.call(endpoints.powerStatus, {}, options);
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
    private readonly api: EndpointCaller,
    private readonly logger: Logger,
  ) {}

  /** Shows a notification on the front screen. Messages over 200 characters are cut, as the device does. */
  async notify(notification: OledNotification, options?: CallOptions): Promise<OledResult> {
    // Counted in characters (code points), as the device counts: never cut an emoji in half.
    const characters = [...checkText(notification.message, 'OLED message')];
    const truncated = characters.length > OLED_MAX_MESSAGE_LENGTH;
    if (truncated) {
      this.logger.warn(`OLED message of ${characters.length} characters cut to ${OLED_MAX_MESSAGE_LENGTH}, as the device would.`);
    }
    const body = {
      title: notification.title ?? '',
      message: characters.slice(0, OLED_MAX_MESSAGE_LENGTH).join(''),
      priority: notification.priority ?? 0,
    };
    const result = await this.api.call<OledNotificationResult>(endpoints.oledNotify, { body }, options);
    return { ...result, truncated };
  }

  /** Sets how many seconds a notification stays on screen (10 by default). */
  async setDisplayTime(seconds: number, options?: CallOptions): Promise<OledNotificationResult> {
    if (checkNumber(seconds, 'display time') <= 0) throw new InvalidInputError(`OLED display time must be above 0 seconds (got ${seconds}).`);
    return this.api.call(endpoints.oledDisplayTime, { body: { time: seconds } }, options);
  }
}

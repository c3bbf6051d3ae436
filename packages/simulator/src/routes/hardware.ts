import type { LedStrip, NetworkAdapter, VideoFormattingCard } from '@stagelink/core';
import { BadRequest, LoginRequired } from '../http-errors.js';
import { hardwareAnswer, hardwareOk } from './answers.js';
import { describeJson, JsonFields } from './json-fields.js';
import type { FamilyRoutes, RouteHandler } from './route.js';

/**
 * Writes answer 401 until a login is made, before the body is read. Reads and whoami do not need a login,
 * except chassis power status, which the spec's table gives a 401 too.
 */
const loginRequired =
  (handler: RouteHandler): RouteHandler =>
  (request, state) => {
    if (!(request.authorized ?? state.hardware.loggedIn)) throw new LoginRequired();
    return handler(request, state);
  };

/** Shipping SMCs answer power status as flags, to anyone; the documents show a Message behind the login. */
const powerStatus: RouteHandler = (request, state) => {
  if (request.authorized === undefined) return loginRequired(() => hardwareAnswer(200, { message: state.hardware.chassis.powerStatus() }))(request, state);
  const stats = state.hardware.statsOf(request.machine);
  const flag = (key: string) => stats[key] === 'true';
  return hardwareAnswer(200, {
    'System Power': stats['System Power'],
    'Power Overload': flag('Power Overload'),
    'Main Power Fault': flag('Main Power Fault'),
    'Power Control Fault': flag('Power Control Fault'),
  });
};

const LED_MODES = ['static', 'colour_id', 'rainbow'];

function readLedStrip(body: JsonFields): LedStrip {
  const mode = body.text('ledMode');
  if (!LED_MODES.includes(mode)) throw new BadRequest(`ledMode must be one of ${LED_MODES.join(', ')} (got "${mode}").`);
  const channel = (key: string): number => {
    const value = body.number(key);
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new BadRequest(`${key} must be a whole number from 0 to 255 (got ${value}).`);
    return value;
  };
  return { ledMode: mode as LedStrip['ledMode'], ledR: channel('ledR'), ledG: channel('ledG'), ledB: channel('ledB') };
}

const readCard = (item: JsonFields): VideoFormattingCard => ({ slot: item.number('slot'), type: item.text('type'), status: item.text('status') });

const readAdapter = (item: JsonFields): NetworkAdapter => ({
  name: item.text('name'),
  ip: item.text('ip'),
  mac: item.text('mac'),
  netmask: item.text('netmask'),
});

/** Spec 4.11: plain HTTP statuses, no envelope. */
export const hardwareRoutes = {
  smcStatus: (_request, state) => hardwareAnswer(200, state.hardware.smc.status()),
  /** The spec calls this write "of no practical use": its shape is checked, then it is ignored. */
  smcSet: loginRequired((request) => {
    for (const [key, value] of JsonFields.body(request).entries()) {
      if (typeof value !== 'string') throw new BadRequest(`SMC value "${key}" must be a string (got ${describeJson(value)}).`);
    }
    return hardwareOk();
  }),
  smcClearAll: loginRequired((_request, state) => {
    state.hardware.clearSmc();
    return hardwareOk();
  }),
  smcEnableDowngrade: loginRequired((_request, state) => {
    state.hardware.smc.enableDowngrade();
    return hardwareOk();
  }),

  vfcsList: (request, state) => hardwareAnswer(200, state.hardware.vfcsOf(request.machine)),
  vfcsReplace: loginRequired((request, state) => {
    state.hardware.replaceVfcs(JsonFields.bodyItems(request).map(readCard));
    return hardwareOk(201);
  }),

  localMachineGet: (_request, state) => hardwareAnswer(200, state.hardware.localMachine()),
  localMachineSet: loginRequired((request, state) => {
    const body = JsonFields.body(request);
    state.hardware.setLocalMachine({ hostname: body.text('hostname'), serial: body.text('serial'), type: body.text('type') });
    return hardwareOk(201);
  }),

  sessionRoleGet: (_request, state) => hardwareAnswer(200, state.hardware.sessionRole()),
  sessionRoleSet: loginRequired((request, state) => {
    state.hardware.setSessionRole({ role: JsonFields.body(request).text('role') });
    return hardwareOk(201);
  }),

  networkAdaptersList: (_request, state) => hardwareAnswer(200, state.hardware.adapters.list()),
  networkAdaptersReplace: loginRequired((request, state) => {
    state.hardware.adapters.replace(JsonFields.bodyItems(request).map(readAdapter));
    return hardwareOk(201);
  }),
  networkAdapterGet: (request, state) => hardwareAnswer(200, state.hardware.adapters.get(request.params['mac'] ?? '')),
  networkAdapterUpdate: loginRequired((request, state) => {
    const mac = request.params['mac'] ?? '';
    state.hardware.adapters.get(mac); // 404 for an unknown MAC comes before 400 for the body
    state.hardware.adapters.update(mac, readAdapter(JsonFields.body(request)));
    return hardwareOk(201);
  }),

  powerCycle: loginRequired((_request, state) => {
    state.hardware.chassis.powerCycle();
    return hardwareOk();
  }),
  powerOff: loginRequired((_request, state) => {
    state.hardware.chassis.powerOff();
    return hardwareOk();
  }),
  powerOn: loginRequired((_request, state) => {
    state.hardware.chassis.powerOn();
    return hardwareOk();
  }),
  powerStatus,
  chassisStats: (request, state) => hardwareAnswer(200, state.hardware.statsOf(request.machine)),
  whoami: (_request, state) => {
    state.hardware.chassis.identify();
    return hardwareOk();
  },

  oledNotify: loginRequired((request, state) => {
    const body = JsonFields.body(request);
    const priority = body.optionalNumber('priority') ?? 0;
    if (![0, 1, 2].includes(priority)) throw new BadRequest(`priority must be 0, 1 or 2 (got ${priority}).`);
    const notification = { title: body.optionalText('title') ?? '', message: body.text('message'), priority };
    return hardwareAnswer(201, state.hardware.oled.notify(notification));
  }),
  oledDisplayTime: loginRequired((request, state) => hardwareAnswer(201, state.hardware.oled.setDisplayTime(JsonFields.body(request).number('time')))),
  ledStripGet: (_request, state) => hardwareAnswer(200, state.hardware.ledStrip),
  ledStripSet: loginRequired((request, state) => {
    state.hardware.ledStrip = readLedStrip(JsonFields.body(request));
    return hardwareOk();
  }),
} satisfies FamilyRoutes;

/**
 * Every HTTP endpoint of the media-server spec, once. The family clients call through these entries, the
 * simulator routes by them, and the Node-RED request node lists them: one table, so the three cannot drift.
 */

import { ACTIVE_TRANSPORT_ANSWER, ANNOTATIONS_ANSWER, HEALTH_ANSWER, SESSION_ANSWER, TRACKS_ANSWER, TRANSPORTS_ANSWER, type AnswerShape } from './answer-shape.js';
import { ACTIVE_TRANSPORT_WORDS, ANNOTATIONS_WORDS, TRANSPORTS_WORDS } from './answer-words.js';

export type HttpMethod = 'GET' | 'POST';

/**
 * - `session`: served by the running application; envelope `status` on every response.
 * - `service`: served by the host service; envelope too, works without a running session.
 * - `hardware`: plain HTTP statuses, no envelope, writes need a login.
 */
export type ApiFamily = 'session' | 'service' | 'hardware';

export interface EndpointSpec {
  /** Client group, as in `ms.<group>.<operation>()`; hardware groups are `hardware.<name>`. */
  group: string;
  operation: string;
  method: HttpMethod;
  /** Path with `{name}` placeholders for path parameters. */
  path: string;
  family: ApiFamily;
  /** Query parameters the endpoint reads. */
  query?: readonly string[];
  /**
   * Where the answer lives in the body: a top-level field name, or `body` for the whole body (hardware family,
   * and session answers whose fields sit beside the envelope).
   */
  returns: string;
  /** The fields of the answer front ends read, checked before it is returned. */
  answer?: AnswerShape;
  /** Puts a checked answer into one vocabulary (see answer-words.ts). */
  words?: (result: unknown) => unknown;
  /** Irreversible or disruptive: refused unless called with `{ confirm: true }`. */
  guarded?: true;
  /**
   * Moves the show to other machines (failover and restore). Core sends it as asked; front ends that fire on
   * messages or topics ask for a confirmation of their own first (see `needsConfirmation`).
   */
  movesShow?: true;
  /**
   * Not in the API documents: shipping builds offer it (recorded on real r34 directors). A build that lacks it
   * answers 404, which core reports as "not offered by this build".
   */
  beyondSpec?: true;
  /**
   * Runs arbitrary code on the director, unauthenticated: refused unless the client was created with
   * `allowPython: true`, and guarded as well.
   */
  runsCode?: true;
  /**
   * The fields of the request body as a shipping director's description gives them (recorded on r34), for the
   * commands beyond the documents: what the simulator's description says of them.
   */
  body?: Readonly<Record<string, BodyField>>;
  summary: string;
}

/** One body field as a description types it: a reference `{uid, name}`, a list of them, or a plain JSON type. */
export type BodyField = 'Ref' | 'Ref[]' | 'string' | 'boolean' | 'object[]';

const LAYERS = { layers: 'Ref[]' } as const;

type EndpointMaker = (
  group: string,
  operation: string,
  method: HttpMethod,
  path: string,
  returns: string,
  summary: string,
  extra?: Partial<EndpointSpec>,
) => EndpointSpec;

const family =
  (family: ApiFamily, prefix: string, groupPrefix = ''): EndpointMaker =>
  (group, operation, method, path, returns, summary, extra = {}) => ({
    group: groupPrefix + group,
    operation,
    method,
    path: prefix + path,
    family,
    returns,
    summary,
    ...extra,
  });

const session = family('session', '/api/session/');
const service = family('service', '/api/service/');
const hardwareFamily = family('hardware', '/api/', 'hardware.');
const hardware = (group: string, operation: string, method: HttpMethod, path: string, summary: string, extra?: Partial<EndpointSpec>) =>
  hardwareFamily(group, operation, method, path, 'body', summary, extra);

const byRef = ['uid', 'name'] as const;

/** Transport commands whose body is `{transports: [Ref]}`. */
export const TRANSPORT_REF_COMMANDS = ['play', 'playloopsection', 'playsection', 'returntostart', 'stop'] as const;

export const endpoints = {
  // 4.1 status
  health: session('status', 'health', 'GET', 'status/health', 'result', 'Health of every machine', { answer: HEALTH_ANSWER }),
  notifications: session('status', 'notifications', 'GET', 'status/notifications', 'result', 'Notifications per machine'),
  project: session('status', 'project', 'GET', 'status/project', 'result', 'Project path and version'),
  session: session('status', 'session', 'GET', 'status/session', 'result', 'Director, actors and understudies', {
    answer: SESSION_ANSWER,
  }),
  setGuiMode: session('status', 'setGuiMode', 'POST', 'status/setguimode', 'body', 'Set the GUI mode of a machine', { body: { machine: 'Ref', mode: 'string' } }),

  // RenderStream, sockpuppet, OmniCal and python: beyond the documents, as a shipping r34 director describes them.
  renderStreamLayers: session('renderstream', 'layers', 'GET', 'renderstream/layers', 'result', 'RenderStream layers and the health of their workloads', { beyondSpec: true }),
  startLayers: session('renderstream', 'startLayers', 'POST', 'renderstream/startlayers', 'body', 'Start the workloads of RenderStream layers', { beyondSpec: true, body: LAYERS }),
  stopLayers: session('renderstream', 'stopLayers', 'POST', 'renderstream/stoplayers', 'body', 'Stop the workloads of RenderStream layers (their content goes dark)', { beyondSpec: true, body: LAYERS, guarded: true }),
  restartLayers: session('renderstream', 'restartLayers', 'POST', 'renderstream/restartlayers', 'body', 'Restart the workloads of RenderStream layers', { beyondSpec: true, body: LAYERS }),
  syncLayers: session('renderstream', 'syncLayers', 'POST', 'renderstream/synclayers', 'body', 'Sync the workloads of RenderStream layers', { beyondSpec: true, body: LAYERS }),
  renderStreamFailover: session('renderstream', 'failover', 'POST', 'renderstream/failover', 'body', 'Fail over the RenderStream workloads of a machine', { beyondSpec: true, body: { machine: 'Ref' }, guarded: true }),
  renderStreamFailoverPool: session('renderstream', 'failoverPool', 'POST', 'renderstream/failoverpool', 'body', 'Update the cluster pool of a layer and restart its workload', { beyondSpec: true, body: { layer: 'Ref' }, guarded: true }),
  sockpuppetLive: session('sockpuppet', 'live', 'POST', 'sockpuppet/live', 'body', 'Change sockpuppet fields live', { beyondSpec: true, body: { patches: 'object[]' } }),
  cameraDiscovery: session('omnical', 'cameraDiscovery', 'POST', 'omnical/cameradiscovery', 'body', 'Turn OmniCal camera discovery on or off', { beyondSpec: true, body: { enabled: 'boolean' } }),
  rigCheckAcceptResult: session('omnical', 'rigCheckAcceptResult', 'POST', 'omnical/rigcheck/acceptresult', 'body', 'Accept a rig check result', { beyondSpec: true }),
  rigCheckDeleteOldResults: session('omnical', 'rigCheckDeleteOldResults', 'POST', 'omnical/rigcheck/deleteoldresults', 'body', 'Delete old rig check results', { beyondSpec: true }),
  rigCheckExecutePlan: session('omnical', 'rigCheckExecutePlan', 'POST', 'omnical/rigcheck/executeplan', 'body', 'Execute a rig check plan (moves cameras and projectors)', { beyondSpec: true, guarded: true }),
  rigCheckRevertResult: session('omnical', 'rigCheckRevertResult', 'POST', 'omnical/rigcheck/revertresult', 'body', 'Revert a rig check result', { beyondSpec: true }),
  pythonExecute: session('python', 'execute', 'POST', 'python/execute', 'body', 'Run a python script on the director', { beyondSpec: true, body: { moduleName: 'string', script: 'string' }, guarded: true, runsCode: true }),
  pythonRegisterModule: session('python', 'registerModule', 'POST', 'python/registermodule', 'body', 'Register a python module on the director', { beyondSpec: true, body: { moduleName: 'string', contents: 'string' }, guarded: true, runsCode: true }),

  // 4.2 transport
  activeTransport: session('transport', 'activeTransport', 'GET', 'transport/activetransport', 'result', 'The active transport(s)', {
    answer: ACTIVE_TRANSPORT_ANSWER,
    words: ACTIVE_TRANSPORT_WORDS,
  }),
  annotations: session('transport', 'annotations', 'GET', 'transport/annotations', 'result', 'Notes, tags and sections of a track', {
    query: byRef,
    answer: ANNOTATIONS_ANSWER,
    words: ANNOTATIONS_WORDS,
  }),
  setLists: session('transport', 'setLists', 'GET', 'transport/setlists', 'result', 'Set lists'),
  tracks: session('transport', 'tracks', 'GET', 'transport/tracks', 'result', 'All tracks', { answer: TRACKS_ANSWER }),
  transports: session('transport', 'transports', 'GET', 'transport/transports', 'body', 'Transports and multitransports', {
    answer: TRANSPORTS_ANSWER,
    words: TRANSPORTS_WORDS,
  }),
  brightness: session('transport', 'setBrightness', 'POST', 'transport/brightness', 'body', 'Set brightness'),
  engaged: session('transport', 'setEngaged', 'POST', 'transport/engaged', 'body', 'Engage or disengage'),
  volume: session('transport', 'setVolume', 'POST', 'transport/volume', 'body', 'Set volume'),
  gotoFrame: session('transport', 'gotoFrame', 'POST', 'transport/gotoframe', 'body', 'Jump to a frame'),
  gotoNextSection: session('transport', 'gotoNextSection', 'POST', 'transport/gotonextsection', 'body', 'Jump to the next section'),
  gotoPrevSection: session('transport', 'gotoPrevSection', 'POST', 'transport/gotoprevsection', 'body', 'Jump to the previous section'),
  gotoNextTrack: session('transport', 'gotoNextTrack', 'POST', 'transport/gotonexttrack', 'body', 'Jump to the next track'),
  gotoPrevTrack: session('transport', 'gotoPrevTrack', 'POST', 'transport/gotoprevtrack', 'body', 'Jump to the previous track'),
  gotoNote: session('transport', 'gotoNote', 'POST', 'transport/gotonote', 'body', 'Jump to a note'),
  gotoSection: session('transport', 'gotoSection', 'POST', 'transport/gotosection', 'body', 'Jump to a section'),
  gotoTag: session('transport', 'gotoTag', 'POST', 'transport/gototag', 'body', 'Jump to a tag'),
  gotoTime: session('transport', 'gotoTime', 'POST', 'transport/gototime', 'body', 'Jump to a time'),
  gotoTimecode: session('transport', 'gotoTimecode', 'POST', 'transport/gototimecode', 'body', 'Jump to a timecode'),
  gotoTrack: session('transport', 'gotoTrack', 'POST', 'transport/gototrack', 'body', 'Jump to the start of a track'),
  play: session('transport', 'play', 'POST', 'transport/play', 'body', 'Play'),
  playLoopSection: session('transport', 'playLoopSection', 'POST', 'transport/playloopsection', 'body', 'Loop the current section'),
  playSection: session('transport', 'playSection', 'POST', 'transport/playsection', 'body', 'Play to the end of the section'),
  returnToStart: session('transport', 'returnToStart', 'POST', 'transport/returntostart', 'body', 'Return to the start'),
  stop: session('transport', 'stop', 'POST', 'transport/stop', 'body', 'Stop'),
  speed: session('transport', 'setSpeed', 'POST', 'transport/speed', 'body', 'Set the playback speed (the project must allow it)', {
    beyondSpec: true,
  }),

  // 4.3 mixed reality
  cameras: session('mixedReality', 'cameras', 'GET', 'mixedreality/cameras', 'result', 'Cameras of the current stage'),
  mrSets: session('mixedReality', 'mrSets', 'GET', 'mixedreality/mrsets', 'result', 'MR sets'),
  spatialCalibrations: session('mixedReality', 'spatialCalibrations', 'GET', 'mixedreality/spatialcalibrations', 'result', 'Spatial calibrations'),
  captureProgress: session('mixedReality', 'captureProgress', 'GET', 'mixedreality/captureprogress', 'result', 'Whether a capture is running'),
  captureObservation: session('mixedReality', 'captureObservation', 'POST', 'mixedreality/captureobservation', 'body', 'Capture an observation'),
  deleteAllObservations: session('mixedReality', 'deleteAllObservations', 'POST', 'mixedreality/deleteallobservations', 'body', 'Delete all observations of a calibration'),
  deleteObservations: session('mixedReality', 'deleteObservations', 'POST', 'mixedreality/deleteobservations', 'body', 'Delete observations'),
  enableObservations: session('mixedReality', 'enableObservations', 'POST', 'mixedreality/enableobservations', 'body', 'Enable or disable observations'),
  selectCamera: session('mixedReality', 'selectCamera', 'POST', 'mixedreality/selectcamera', 'body', 'Override the camera of an MR set'),
  selectSpatialCalibration: session('mixedReality', 'selectSpatialCalibration', 'POST', 'mixedreality/selectspatialcalibration', 'body', 'Select the calibration of a camera'),

  // 4.4 quick calibration
  lineupCurrentPose: session('quickcal', 'lineupCurrentPose', 'POST', 'quickcal/lineupcurrentpose', 'body', 'Line up a reference point'),
  overwriteManualCalibration: session('quickcal', 'overwriteManualCalibration', 'POST', 'quickcal/overwritemanualcalibration', 'body', 'Copy the calibration to the manual fields'),
  resetLineup: session('quickcal', 'resetLineup', 'POST', 'quickcal/resetlineup', 'body', 'Reset the lineup of a projector'),
  projectorCalibration: session('quickcal', 'projectorCalibration', 'GET', 'quickcal/projectorcalibration', 'info', 'Calibration info of a projector', { query: byRef }),
  referencePoints: session('quickcal', 'referencePoints', 'GET', 'quickcal/referencepoints', 'result', 'Reference points'),

  // 4.5 failover
  applyDefaultRouting: session('failover', 'applyDefaultRouting', 'POST', 'failover/applydefaultrouting', 'body', 'Restore the default routing'),
  failoverMachine: session('failover', 'failoverMachine', 'POST', 'failover/failovermachine', 'body', 'Fail over an actor to an understudy', { movesShow: true }),
  restoreMachine: session('failover', 'restoreMachine', 'POST', 'failover/restoremachine', 'body', 'Restore a failed-over actor', { movesShow: true }),
  failoverSettings: session('failover', 'settings', 'GET', 'failover/settings', 'body', 'Failover timeout and presets'),
  understudyTargets: session('failover', 'understudyTargets', 'GET', 'failover/understudytargets', 'understudies', 'Which understudy covers which actor'),

  // 4.6 sequencing
  changeIndirections: session('sequencing', 'changeIndirections', 'POST', 'sequencing/changeindirections', 'body', 'Point indirections at other resources'),
  indirectionResources: session('sequencing', 'indirectionResources', 'GET', 'sequencing/indirectionresources', 'result', 'Resources an indirection can point at', { query: byRef }),
  indirections: session('sequencing', 'indirections', 'GET', 'sequencing/indirections', 'result', 'Indirections'),

  // 4.7 notes
  getNote: session('notes', 'get', 'GET', 'note', 'result', 'Read a note', { query: byRef }),
  setNote: session('notes', 'set', 'POST', 'note', 'result', 'Create or update a note'),
  listNotes: session('notes', 'list', 'GET', 'notes', 'result', 'All named notes', { query: ['start', 'count'] }),

  // 4.8 shot recorder, looks, colour
  record: session('shotRecorder', 'record', 'POST', 'shotrecorder/record', 'body', 'Start or stop recording'),
  recorders: session('shotRecorder', 'recorders', 'GET', 'shotrecorder/recorders', 'recorders', 'Shot recorders'),
  looks: session('looks', 'list', 'GET', 'looks', 'result', 'Looks'),
  setCdl: session('colour', 'setCdl', 'POST', 'colour/cdl', 'body', 'Set a CDL'),
  cdls: session('colour', 'cdls', 'GET', 'colour/cdls', 'result', 'CDLs'),

  // 4.9 media files
  listMedia: service('media', 'list', 'GET', 'media/list', 'files', 'Files of a directory, recursively', { query: ['directory'] }),
  provision: service('media', 'provision', 'POST', 'media/provision', 'result', 'Copy or download media to this machine'),
  removeMedia: service('media', 'remove', 'POST', 'media/remove', 'taskUid', 'Remove a file or folder'),

  // 4.10 system information
  detectSystems: service('system', 'detectSystems', 'GET', 'system/detectsystems', 'result', 'Machines on the network'),
  osInfo: service('system', 'osInfo', 'GET', 'system/osinfo', 'result', 'Operating system versions'),
  serviceVfcs: service('system', 'vfcs', 'GET', 'system/vfcs', 'result', 'Video formatting card details'),

  // 4.11 hardware
  smcStatus: hardware('smc', 'get', 'GET', 'smc', 'SMC status'),
  smcSet: hardware('smc', 'set', 'POST', 'smc', 'Write SMC values'),
  smcClearAll: hardware('smc', 'clearAll', 'POST', 'smc/clear/all', 'Erase the SMC database, user accounts included (no undo)', { guarded: true }),
  smcEnableDowngrade: hardware('smc', 'enableDowngrade', 'POST', 'smc/enable/downgrade', 'Allow a downgrade (may be unrecoverable)', { guarded: true }),
  vfcsList: hardware('vfcs', 'list', 'GET', 'vfcs', 'Video formatting cards'),
  vfcsReplace: hardware('vfcs', 'replace', 'POST', 'vfcs', 'Replace the list of video formatting cards'),
  localMachineGet: hardware('localMachine', 'get', 'GET', 'localmachine', 'This machine'),
  localMachineSet: hardware('localMachine', 'set', 'POST', 'localmachine', 'Set this machine'),
  sessionRoleGet: hardware('sessionRole', 'get', 'GET', 'session', 'Session role of this machine'),
  sessionRoleSet: hardware('sessionRole', 'set', 'POST', 'session', 'Set the session role'),
  networkAdaptersList: hardware('networkAdapters', 'list', 'GET', 'networkadapters', 'Network adapters'),
  networkAdaptersReplace: hardware('networkAdapters', 'replace', 'POST', 'networkadapters', 'Replace the network adapters'),
  networkAdapterGet: hardware('networkAdapters', 'get', 'GET', 'networkadapters/{mac}', 'One network adapter by MAC'),
  networkAdapterUpdate: hardware('networkAdapters', 'update', 'POST', 'networkadapters/{mac}', 'Update one network adapter'),
  powerCycle: hardware('chassis', 'powerCycle', 'POST', 'chassis/power/cycle', 'Power cycle via IPMI, no graceful shutdown', { guarded: true }),
  powerOff: hardware('chassis', 'powerOff', 'POST', 'chassis/power/off', 'Power off via IPMI, no graceful shutdown', { guarded: true }),
  powerOn: hardware('chassis', 'powerOn', 'POST', 'chassis/power/on', 'Power on via IPMI'),
  powerStatus: hardware('chassis', 'powerStatus', 'GET', 'chassis/power/status', 'Chassis power status'),
  chassisStats: hardware('chassis', 'stats', 'GET', 'chassis/stats', 'Fans, temperatures and power flags'),
  whoami: hardware('chassis', 'whoami', 'POST', 'chassis/whoami', 'Blink the OLED and rear LEDs'),
  oledNotify: hardware('oled', 'notify', 'POST', 'oled/notification', 'Show a notification on the front screen'),
  oledDisplayTime: hardware('oled', 'setDisplayTime', 'POST', 'oled/notification/time', 'Set the default display time'),
  ledStripGet: hardware('ledStrip', 'get', 'GET', 'ledstrip', 'LED strip mode and colour', { beyondSpec: true }),
  ledStripSet: hardware('ledStrip', 'set', 'POST', 'ledstrip', 'Set the LED strip mode and colour', { beyondSpec: true }),
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof endpoints;

/** Every endpoint, in spec order. */
export const endpointList: readonly (EndpointSpec & { id: EndpointName })[] = Object.entries(endpoints).map(
  ([id, spec]) => ({ id: id as EndpointName, ...spec }),
);

/**
 * The failover family by the last segment of its path: the operation names flows, settings and cue topics use.
 */
export const FAILOVER_OPERATIONS = {
  failovermachine: endpoints.failoverMachine,
  restoremachine: endpoints.restoreMachine,
  applydefaultrouting: endpoints.applyDefaultRouting,
  settings: endpoints.failoverSettings,
  understudytargets: endpoints.understudyTargets,
} as const satisfies Record<string, EndpointSpec>;

export type FailoverOperation = keyof typeof FAILOVER_OPERATIONS;

/** The failover operations whose body names one actor machine (`{ machine: Ref }`). */
export const FAILOVER_MACHINE_OPERATIONS: readonly FailoverOperation[] = ['failovermachine', 'restoremachine'];

export function isFailoverOperation(value: unknown): value is FailoverOperation {
  return typeof value === 'string' && Object.hasOwn(FAILOVER_OPERATIONS, value);
}

/**
 * Whether a front end that fires on a message, a topic or a key must see a confirmation before sending: the
 * irreversible operations core itself guards, and those that move the show.
 */
export function needsConfirmation(spec: EndpointSpec): boolean {
  return spec.guarded === true || spec.movesShow === true;
}

/** OLED limits: longer messages are cut by the device, which shows a notice for 10 s by default. */
export const OLED_MAX_MESSAGE_LENGTH = 200;
export const OLED_DEFAULT_DISPLAY_SECONDS = 10;

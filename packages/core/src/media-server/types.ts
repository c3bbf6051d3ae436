/**
 * Wire types of the media-server control API, as the API documents name them.
 * The simulator and the front ends import these; nobody re-declares them.
 * uids are strings everywhere: uint64 values do not fit a JS number.
 */

import type { Playmode } from './playmode.js';

/** Identifies an object by uid and/or name. Keep the two apart: a track named "42" is not uid 42. */
export interface Ref {
  uid?: string;
  name?: string;
}

/** A Ref as the server writes it back: both fields present. */
export interface NamedRef {
  uid: string;
  name: string;
}

export interface Vec2 {
  x: number;
  y: number;
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** The documents show `{type_url, value}`; shipping directors put the reason in `{message}` (sometimes with `uid`). */
export interface StatusDetail {
  type_url?: string;
  value?: string;
  message?: string;
}

/** The envelope carried by every response of the session and service families. */
export interface Envelope {
  status: { code: number; message: string; details: StatusDetail[] };
}

export interface Machine {
  uid: string;
  name: string;
  hostname: string;
}

// ---- status ---------------------------------------------------------------

export interface SessionMachine extends Machine {
  type: string;
  guiMode: string;
  guiVisible: boolean;
}

/** `ready` is reported by some servers where others say `ok`; both mean healthy. */
export type Severity = 'ok' | 'ready' | 'warning' | 'error' | 'busy' | 'offline';

export type HealthCategory = 'Connection' | 'Output' | 'Genlock' | 'Devices';

export interface HealthState {
  name: string;
  detail: string;
  /** One of HealthCategory. */
  category: string;
  /** One of Severity; kept open because servers differ (`ok` or `ready`). */
  severity: string;
}

export interface HealthEntry {
  machine: Machine;
  runningAsMachine: Machine;
  status: {
    averageFPS: number;
    videoDroppedFrames: number;
    videoMissedFrames: number;
    states: HealthState[];
  };
}

export interface NotificationEntry {
  machine: Machine;
  notifications: { summary: string; detail: string }[];
}

export interface ProjectInfo {
  projectPath: string;
  version: { major: number; minor: number; hotfix: number; revision: number; releaseType: string };
}

export interface SessionInfo {
  isRunningSolo: boolean;
  isDirectorDedicated: boolean;
  /** Absent when the machine runs solo. */
  director?: SessionMachine;
  actors: SessionMachine[];
  understudies: SessionMachine[];
}

// ---- transport ------------------------------------------------------------

export interface Track {
  uid: string;
  name: string;
  length: number;
  crossfade: string;
}

export interface SetList {
  uid: string;
  name: string;
  tracks: Track[];
}

export interface Transport {
  uid: string;
  name: string;
  engaged: boolean;
  volume: number;
  brightness: number;
  /** In either vocabulary on the wire; typed results carry the enum name (`isPlaying` reads it). */
  playmode: Playmode;
  currentTrack: NamedRef;
  receivingTimecode: boolean;
  setList: SetList;
}

export interface Multitransport {
  uid: string;
  name: string;
  engaged: boolean;
  transports: string[];
}

export interface TrackAnnotations {
  uid: string;
  name: string;
  annotations: {
    notes: { time: number; text: string }[];
    tags: { time: number; type: string; value: string }[];
    /** `index` is the 0-based number `gotoSection` takes (the wire has it as text or as a number). */
    sections: { time: number; index: number }[];
  };
}

// ---- mixed reality --------------------------------------------------------

export interface Camera {
  uid: string;
  name: string;
  spatialCalibration: NamedRef;
}

export interface MrSet {
  uid: string;
  name: string;
  currentCamera: NamedRef;
  isCameraOverride: boolean;
}

export interface Pose {
  position: Vec3;
  rotation: Vec3;
}

export interface Observation {
  uid: string;
  name: string;
  trackedPose: Pose;
  solvedPose: Pose;
  isEnabled: boolean;
  zoom: number;
  focus: number;
  type: string;
  rmsError: number;
}

export interface SpatialCalibration {
  uid: string;
  name: string;
  mrsets: NamedRef[];
  observations: Observation[];
}

// ---- quick calibration ----------------------------------------------------

export interface ProjectorCalibrationInfo {
  restError: number;
  reprojectionError: number;
  rmsError: number;
  selectedCalibrationMethod: string;
  usedCalibrationMethod: string;
  requiredLineups: number;
  currentLineups: number;
  fixedThrowRatio: boolean;
}

// ---- failover -------------------------------------------------------------

export interface FailoverSettings {
  timeout: number;
  normalPreset: string;
  currentPreset: string;
}

/** The spec does not show this object's contents; the simulator maps actor hostnames to understudy hostnames. */
export type UnderstudyTargets = Record<string, unknown>;

// ---- sequencing, notes, shot recorder, looks, colour ----------------------

export interface Indirection {
  uid: string;
  name: string;
  resourceType: string;
  currentResource: NamedRef;
}

export interface Note {
  note: NamedRef;
  text: string;
}

export interface ShotRecorder {
  engaged: boolean;
  name: string;
  slate: string;
  take: number;
}

export interface LookField {
  name: string;
  displayName: string;
  groupName: string;
  type: string;
  resourceMeta?: { type: string };
  floatMeta?: { min: number; max: number; defaultValue: number; step: number };
  stringMeta?: { options: string[]; defaultValue: string };
  resourceValue?: NamedRef;
  floatValue?: { value: number; duration: number; easingFunction: string; startValue: number; currentValue: number };
  stringValue?: string;
}

export interface Look {
  address: string;
  uid: string;
  description: string;
  fields: LookField[];
}

export interface Cdl {
  uid: string;
  name: string;
  slope: Vec3;
  offset: Vec3;
  power: Vec3;
  saturation: number;
}

// ---- media files and system ----------------------------------------------

export interface MediaFile {
  path: string;
  size: string;
  creationDate: string;
  lastWriteDate: string;
}

export interface ProvisionTransfer {
  mediaPath: string;
  uid: string;
  localPath: string[];
}

export interface ProvisionRequest {
  mediaPath?: string;
  localPath?: string[];
  uid?: string;
  transfers?: ProvisionTransfer[];
}

export interface ProvisionTaskResult {
  taskUid: string;
  success: boolean;
  errorMessage: { mediaPath: string; localPath: string; message: string };
  taskType: string;
  taskStatusStream: string;
}

export interface DetectedSystem {
  hostname: string;
  ipAddress: string;
  version: { major: number; minor: number; hotfix: number };
  isAppRunning: boolean;
  isServiceRunning: boolean;
}

/** Field names are not shown in the spec; kept open. */
export type OsInfo = Record<string, unknown>;
export type ServiceVfc = Record<string, unknown>;

// ---- hardware -------------------------------------------------------------

export interface VideoFormattingCard {
  slot: number;
  type: string;
  status: string;
}

export interface LocalMachine {
  hostname: string;
  serial: string;
  type: string;
}

export interface SessionRole {
  role: string;
}

export interface NetworkAdapter {
  name: string;
  /** Dotted decimal. */
  ip: string;
  /** Hex groups separated by hyphens, e.g. `00-1A-2B-3C-4D-5E`. */
  mac: string;
  /** Dotted decimal. */
  netmask: string;
}

/** The hardware family's plain success body: `ok` on success. */
export interface HardwareMessage {
  message: string;
}

/**
 * Chassis power as flags, from the documents' `{message}` or the flags object shipping SMCs answer
 * (`"System Power": "on"`, `"Power Overload": false`, ...; booleans or strings). A flag the answer lacks is absent.
 */
export interface PowerStatus {
  systemPower?: 'on' | 'off';
  powerOverload?: boolean;
  mainPowerFault?: boolean;
  powerControlFault?: boolean;
  /** The documents' status text, when the answer is a Message. */
  message?: string;
}

export type LedStripMode = 'static' | 'colour_id' | 'rainbow';

/** The rear LED strip: a mode and a colour (0..255 per channel). */
export interface LedStrip {
  ledMode: LedStripMode;
  ledR: number;
  ledG: number;
  ledB: number;
}

export interface OledNotification {
  title: string;
  message: string;
  /** 0 (lowest) to 2; default 0. */
  priority?: number;
}

export interface OledNotificationResult {
  priority: number;
  title: string;
  message: string;
}

/** `renderstream/startlayers|stoplayers|restartlayers|synclayers`. */
export interface RenderStreamLayers {
  layers: Ref[];
}

/** What a RenderStream workload is doing; shipping directors report more words, kept as they come. */
export type WorkloadState = 'running' | 'starting' | 'stopped' | 'error' | (string & {});

/** One layer of `GET renderstream/layers`. */
export interface RenderStreamLayer {
  uid: string;
  name: string;
  workload: { state: WorkloadState; message?: string };
}

/** `status/setguimode`. */
/** r34's words; the documents' servers take their own (kept as text). */
export type GuiMode = 'OffWhenActor' | 'AlwaysOn' | 'AlwaysOff' | (string & {});

/** One change of a `sockpuppet/live` patch: a float (eased), a string or a resource. */
export type SockpuppetChange =
  | { field: string; floatValue: { value: number; duration?: number; easingFunction?: string; startValue?: number; currentValue?: number } }
  | { field: string; stringValue: string }
  | { field: string; resourceValue: Ref };

export interface SockpuppetPatch {
  address: string;
  changes: SockpuppetChange[];
  uid?: string;
}

/** `python/execute`. */
export interface PythonScript {
  moduleName?: string;
  script: string;
}

/** `python/registermodule`. */
export interface PythonModule {
  moduleName: string;
  contents: string;
}

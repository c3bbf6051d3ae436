import type { Camera, MrSet, NamedRef, Observation, Ref, SpatialCalibration, Vec3 } from '@stagelink/core';
import type { Clock } from './clock.js';
import type { SeededRandom } from './random.js';
import { failedPrecondition, notFound } from './refusal.js';
import { requireByRef, toNamedRef } from './refs.js';
import type { UidSource } from './uids.js';

/** How long a simulated observation capture runs. */
export const CAPTURE_DURATION_MS = 1500;

/** `selectcamera` with this camera uid clears the override: uid 0 is the server's "none". */
export const NO_CAMERA_UID = '0';

export interface CameraModel {
  readonly uid: string;
  readonly name: string;
  spatialCalibrationUid: string;
}

export interface MrSetModel {
  readonly uid: string;
  readonly name: string;
  readonly defaultCameraUid: string;
  overrideCameraUid?: string;
}

export interface CalibrationModel {
  readonly uid: string;
  readonly name: string;
  observations: Observation[];
}

interface Capture {
  readonly camera: CameraModel;
  readonly calibration: CalibrationModel;
  readonly endsAt: number;
}

export interface MixedRealitySetup {
  cameras: CameraModel[];
  mrSets: MrSetModel[];
  calibrations: CalibrationModel[];
}

/**
 * Cameras, MR sets and spatial calibrations. A capture runs for a short time and then adds one observation to its
 * calibration; only one capture runs at a time, as on a real server (a second is refused). The end of a capture is worked out from the
 * clock when state is read, so no timer is left behind.
 */
export class MixedReality {
  readonly #cameras: CameraModel[];
  readonly #mrSets: MrSetModel[];
  readonly #calibrations: CalibrationModel[];
  #capture: Capture | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly random: SeededRandom,
    private readonly uids: UidSource,
    setup: MixedRealitySetup,
  ) {
    this.#cameras = setup.cameras;
    this.#mrSets = setup.mrSets;
    this.#calibrations = setup.calibrations;
  }

  cameras(): Camera[] {
    return this.#cameras.map((camera) => ({ ...toNamedRef(camera), spatialCalibration: toNamedRef(this.#calibrationOf(camera)) }));
  }

  mrSets(): MrSet[] {
    return this.#mrSets.map((mrSet) => ({
      ...toNamedRef(mrSet),
      currentCamera: toNamedRef(this.#currentCamera(mrSet)),
      isCameraOverride: mrSet.overrideCameraUid !== undefined,
    }));
  }

  /** Each calibration lists the MR sets whose current camera uses it. */
  spatialCalibrations(): SpatialCalibration[] {
    this.#settle();
    return this.#calibrations.map((calibration) => ({
      ...toNamedRef(calibration),
      mrsets: this.#mrSets.filter((mrSet) => this.#currentCamera(mrSet).spatialCalibrationUid === calibration.uid).map(toNamedRef),
      observations: calibration.observations.map((observation) => structuredClone(observation)),
    }));
  }

  captureInProgress(): boolean {
    this.#settle();
    return this.#capture !== undefined;
  }

  captureObservation(cameraRef: Ref, calibrationRef: Ref): void {
    this.#settle();
    const camera = requireByRef(this.#cameras, cameraRef, 'camera');
    const calibration = requireByRef(this.#calibrations, calibrationRef, 'spatial calibration');
    const running = this.#capture;
    if (running) {
      throw failedPrecondition(
        `A capture is already running (camera "${running.camera.name}" into "${running.calibration.name}"): only one capture runs at a time; wait until captureprogress is false.`,
      );
    }
    this.#capture = { camera, calibration, endsAt: this.clock.now() + CAPTURE_DURATION_MS };
  }

  deleteAllObservations(calibrationRef: Ref): void {
    requireByRef(this.#calibrations, calibrationRef, 'spatial calibration').observations = [];
  }

  deleteObservations(uids: readonly string[]): void {
    this.#settle();
    this.#requireObservations(uids);
    for (const calibration of this.#calibrations) {
      calibration.observations = calibration.observations.filter((observation) => !uids.includes(observation.uid));
    }
  }

  enableObservations(changes: readonly { uid: string; enable: boolean }[]): void {
    this.#settle();
    const observations = this.#requireObservations(changes.map((change) => change.uid));
    changes.forEach((change, index) => {
      const observation = observations[index];
      if (observation) observation.isEnabled = change.enable;
    });
  }

  selectCamera(mrSetRef: Ref, cameraRef: Ref): void {
    const mrSet = requireByRef(this.#mrSets, mrSetRef, 'MR set');
    if (cameraRef.uid === NO_CAMERA_UID) {
      mrSet.overrideCameraUid = undefined;
      return;
    }
    mrSet.overrideCameraUid = requireByRef(this.#cameras, cameraRef, 'camera').uid;
  }

  selectSpatialCalibration(cameraRef: Ref, calibrationRef: Ref): void {
    const camera = requireByRef(this.#cameras, cameraRef, 'camera');
    camera.spatialCalibrationUid = requireByRef(this.#calibrations, calibrationRef, 'spatial calibration').uid;
  }

  #requireObservations(uids: readonly string[]): Observation[] {
    const all = this.#calibrations.flatMap((calibration) => calibration.observations);
    const found = uids.map((uid) => all.find((observation) => observation.uid === uid));
    const missing = uids.filter((_, index) => !found[index]);
    if (missing.length > 0) throw notFound(`Observation${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found.`);
    return found.filter((observation) => observation !== undefined);
  }

  #settle(): void {
    const capture = this.#capture;
    if (!capture || this.clock.now() < capture.endsAt) return;
    const { observations } = capture.calibration;
    observations.push(makeObservation(this.random, this.uids.next(), `Observation ${observations.length + 1}`));
    this.#capture = undefined;
  }

  #calibrationOf(camera: CameraModel): CalibrationModel | NamedRef {
    return this.#calibrations.find((calibration) => calibration.uid === camera.spatialCalibrationUid) ?? { uid: NO_CAMERA_UID, name: '' };
  }

  #currentCamera(mrSet: MrSetModel): CameraModel {
    const uid = mrSet.overrideCameraUid ?? mrSet.defaultCameraUid;
    return this.#cameras.find((camera) => camera.uid === uid) ?? { uid: NO_CAMERA_UID, name: '', spatialCalibrationUid: NO_CAMERA_UID };
  }
}

/** A plausible observation: a tracked pose, a solved pose close to it, and lens readings. */
export function makeObservation(random: SeededRandom, uid: string, name: string): Observation {
  const trackedPose = { position: vec3(random, -4, 4), rotation: vec3(random, -180, 180) };
  const nudge = (value: Vec3): Vec3 => ({
    x: Number((value.x + random.between(-0.02, 0.02, 4)).toFixed(4)),
    y: Number((value.y + random.between(-0.02, 0.02, 4)).toFixed(4)),
    z: Number((value.z + random.between(-0.02, 0.02, 4)).toFixed(4)),
  });
  return {
    uid,
    name,
    trackedPose,
    solvedPose: { position: nudge(trackedPose.position), rotation: nudge(trackedPose.rotation) },
    isEnabled: true,
    zoom: random.between(0, 1, 3),
    focus: random.between(0, 1, 3),
    type: 'spatial',
    rmsError: random.between(0.1, 1.2, 3),
  };
}

function vec3(random: SeededRandom, min: number, max: number): Vec3 {
  return { x: random.between(min, max, 3), y: random.between(min, max, 3), z: random.between(min, max, 3) };
}

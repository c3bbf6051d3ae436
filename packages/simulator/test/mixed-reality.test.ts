import { describe, expect, it } from 'vitest';
import { CAPTURE_DURATION_MS, NO_CAMERA_UID } from '../src/state/mixed-reality.js';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, ManualClock, refusalOf } from './support/demo-state.js';

const cameraA = { name: 'Camera A' };
const stageCal = { name: 'Stage cal' };

function observationsOf(state: ReturnType<typeof demoState>, name: string) {
  return state.mixedReality.spatialCalibrations().find((calibration) => calibration.name === name)?.observations ?? [];
}

describe('observation capture (one at a time)', () => {
  it('runs for a short time, refuses a second capture meanwhile, then adds one observation', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    expect(state.mixedReality.captureInProgress()).toBe(false);

    state.mixedReality.captureObservation(cameraA, stageCal);
    expect(state.mixedReality.captureInProgress()).toBe(true);
    const refusal = refusalOf(() => state.mixedReality.captureObservation({ name: 'Crane' }, { name: 'Crane cal' }));
    expect(refusal.code).toBe(StatusCode.failedPrecondition);
    expect(refusal.message).toMatch(/already running .*only one capture runs at a time/);

    clock.advanceSeconds(CAPTURE_DURATION_MS / 1000);
    expect(state.mixedReality.captureInProgress()).toBe(false);
    expect(observationsOf(state, 'Stage cal').map((observation) => observation.name)).toEqual([
      'Observation 1',
      'Observation 2',
      'Observation 3',
      'Observation 4',
    ]);
    expect(() => state.mixedReality.captureObservation(cameraA, stageCal)).not.toThrow();
  });

  it('refuses an unknown camera or calibration without starting a capture', () => {
    const state = demoState();
    expect(refusalOf(() => state.mixedReality.captureObservation({ name: 'Drone' }, stageCal)).message).toContain('Camera "Drone" not found');
    expect(state.mixedReality.captureInProgress()).toBe(false);
  });
});

describe('observations', () => {
  it('enables, disables and deletes observations by uid', () => {
    const state = demoState();
    const [first, second] = observationsOf(state, 'Stage cal');
    state.mixedReality.enableObservations([{ uid: first?.uid ?? '', enable: false }]);
    expect(observationsOf(state, 'Stage cal')[0]?.isEnabled).toBe(false);

    state.mixedReality.deleteObservations([second?.uid ?? '']);
    expect(observationsOf(state, 'Stage cal').map((observation) => observation.uid)).not.toContain(second?.uid);

    state.mixedReality.deleteAllObservations(stageCal);
    expect(observationsOf(state, 'Stage cal')).toEqual([]);
  });

  it('refuses unknown observation uids and changes none', () => {
    const state = demoState();
    const [first] = observationsOf(state, 'Stage cal');
    const refusal = refusalOf(() => state.mixedReality.deleteObservations([first?.uid ?? '', '123']));
    expect(refusal.code).toBe(StatusCode.notFound);
    expect(refusal.message).toContain('123');
    expect(observationsOf(state, 'Stage cal')).toHaveLength(3);
  });
});

describe('cameras and MR sets', () => {
  it('overrides the camera of an MR set, and uid 0 clears the override', () => {
    const state = demoState();
    state.mixedReality.selectCamera({ name: 'Main MR set' }, { name: 'Camera B' });
    expect(state.mixedReality.mrSets()[0]).toMatchObject({ currentCamera: { name: 'Camera B' }, isCameraOverride: true });
    state.mixedReality.selectCamera({ name: 'Main MR set' }, { uid: NO_CAMERA_UID });
    expect(state.mixedReality.mrSets()[0]).toMatchObject({ currentCamera: { name: 'Camera A' }, isCameraOverride: false });
  });

  it('selects the calibration of a camera; a calibration lists the MR sets whose camera uses it', () => {
    const state = demoState();
    state.mixedReality.selectSpatialCalibration(cameraA, { name: 'Crane cal' });
    expect(state.mixedReality.cameras()[0]?.spatialCalibration.name).toBe('Crane cal');
    const mrSetsOf = (name: string) =>
      state.mixedReality.spatialCalibrations().find((calibration) => calibration.name === name)?.mrsets.map((mrSet) => mrSet.name);
    expect(mrSetsOf('Crane cal')).toEqual(['Main MR set', 'Backdrop MR set']);
    expect(mrSetsOf('Stage cal')).toEqual([]);
  });
});

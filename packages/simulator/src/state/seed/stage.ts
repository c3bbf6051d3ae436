import type { NamedRef } from '@stagelink/core';
import type { MixedRealitySetup } from '../mixed-reality.js';
import { makeObservation } from '../mixed-reality.js';
import { solveErrors, type ProjectorModel } from '../quickcal.js';
import type { SeededRandom } from '../random.js';
import type { UidSource } from '../uids.js';

export interface StageSeed {
  mixedReality: MixedRealitySetup;
  projectors: ProjectorModel[];
  referencePoints: NamedRef[];
  requiredLineups: number;
}

/**
 * Mixed reality: three cameras, two MR sets and two spatial calibrations ("Stage cal" with three observations).
 * Quick calibration: two projectors, six reference points, four lineups needed; "Projector 1" is lined up.
 */
export function seedStage(uids: UidSource, random: SeededRandom): StageSeed {
  const named = (name: string): NamedRef => ({ uid: uids.next(), name });
  const stageCal = { ...named('Stage cal'), observations: [1, 2, 3].map((n) => makeObservation(random, uids.next(), `Observation ${n}`)) };
  const craneCal = { ...named('Crane cal'), observations: [makeObservation(random, uids.next(), 'Observation 1')] };
  const cameraA = { ...named('Camera A'), spatialCalibrationUid: stageCal.uid };
  const cameraB = { ...named('Camera B'), spatialCalibrationUid: stageCal.uid };
  const crane = { ...named('Crane'), spatialCalibrationUid: craneCal.uid };
  const referencePoints = ['Point A', 'Point B', 'Point C', 'Point D', 'Point E', 'Point F'].map(named);
  const requiredLineups = 4;
  const projector = (name: string, fixedThrowRatio: boolean, linedUp: number): ProjectorModel => ({
    ...named(name),
    fixedThrowRatio,
    lineups: new Map(referencePoints.slice(0, linedUp).map((point) => [point.uid, { x: random.between(0, 1920, 1), y: random.between(0, 1080, 1) }])),
    selectedMethod: 'quickcal',
    hasManualCalibration: false,
    errors: solveErrors(random),
  });
  return {
    mixedReality: {
      cameras: [cameraA, cameraB, crane],
      mrSets: [
        { ...named('Main MR set'), defaultCameraUid: cameraA.uid },
        { ...named('Backdrop MR set'), defaultCameraUid: crane.uid },
      ],
      calibrations: [stageCal, craneCal],
    },
    projectors: [projector('Projector 1', false, requiredLineups), projector('Projector 2', true, 0)],
    referencePoints,
    requiredLineups,
  };
}

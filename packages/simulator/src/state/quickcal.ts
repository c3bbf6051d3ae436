import type { NamedRef, ProjectorCalibrationInfo, Ref, Vec2 } from '@stagelink/core';
import type { SeededRandom } from './random.js';
import { failedPrecondition } from './refusal.js';
import { requireByRef, toNamedRef } from './refs.js';

export type CalibrationMethod = 'quickcal' | 'manual' | 'none';

export interface ProjectorModel {
  readonly uid: string;
  readonly name: string;
  readonly fixedThrowRatio: boolean;
  /** Positions lined up so far, by reference point uid. */
  readonly lineups: Map<string, Vec2>;
  selectedMethod: Exclude<CalibrationMethod, 'none'>;
  /** Set once the current calibration was copied to the manual fields. */
  hasManualCalibration: boolean;
  errors: { rest: number; reprojection: number; rms: number };
}

/**
 * Quick calibration of projectors: lining up reference points until enough are lined up solves a calibration.
 * The method in use is `quickcal` once `requiredLineups` points are lined up, `manual` once the manual fields
 * hold a copy and manual is selected, and `none` otherwise.
 */
export class Quickcal {
  constructor(
    private readonly random: SeededRandom,
    private readonly projectors: readonly ProjectorModel[],
    private readonly points: readonly NamedRef[],
    private readonly requiredLineups: number,
  ) {}

  referencePoints(): NamedRef[] {
    return this.points.map(toNamedRef);
  }

  projectorCalibration(ref: Ref): ProjectorCalibrationInfo {
    const projector = this.#projector(ref);
    const usedMethod = this.#usedMethod(projector);
    const calibrated = usedMethod !== 'none';
    return {
      restError: calibrated ? projector.errors.rest : 0,
      reprojectionError: calibrated ? projector.errors.reprojection : 0,
      rmsError: calibrated ? projector.errors.rms : 0,
      selectedCalibrationMethod: projector.selectedMethod,
      usedCalibrationMethod: usedMethod,
      requiredLineups: this.requiredLineups,
      currentLineups: projector.lineups.size,
      fixedThrowRatio: projector.fixedThrowRatio,
    };
  }

  lineupCurrentPose(projectorRef: Ref, pointRef: Ref, position: Vec2): void {
    const projector = this.#projector(projectorRef);
    const point = requireByRef(this.points, pointRef, 'reference point');
    projector.lineups.set(point.uid, { x: position.x, y: position.y });
    if (projector.lineups.size >= this.requiredLineups) projector.errors = solveErrors(this.random);
  }

  resetLineup(ref: Ref): void {
    this.#projector(ref).lineups.clear();
  }

  overwriteManualCalibration(ref: Ref): void {
    const projector = this.#projector(ref);
    if (this.#usedMethod(projector) === 'none') {
      throw failedPrecondition(
        `Projector "${projector.name}" has no calibration to copy: line up ${this.requiredLineups} reference points first (${projector.lineups.size} so far).`,
      );
    }
    projector.hasManualCalibration = true;
    projector.selectedMethod = 'manual';
  }

  #usedMethod(projector: ProjectorModel): CalibrationMethod {
    if (projector.selectedMethod === 'manual' && projector.hasManualCalibration) return 'manual';
    if (projector.selectedMethod === 'quickcal' && projector.lineups.size >= this.requiredLineups) return 'quickcal';
    return 'none';
  }

  #projector(ref: Ref): ProjectorModel {
    return requireByRef(this.projectors, ref, 'projector');
  }
}

/** The residual errors of a fresh solve, in pixels. */
export function solveErrors(random: SeededRandom): ProjectorModel['errors'] {
  return { rest: random.between(0.05, 0.6, 3), reprojection: random.between(0.2, 1.5, 3), rms: random.between(0.1, 1, 3) };
}

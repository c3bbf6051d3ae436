import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef, refQuery } from './input-checks.js';
import type { NamedRef, ProjectorCalibrationInfo, Ref, Vec2 } from './types.js';

export class QuickcalApi {
  constructor(private readonly api: EndpointCaller) {}

  async lineupCurrentPose(request: { projector: Ref; referencePoint: Ref; position: Vec2 }, options?: CallOptions): Promise<void> {
    const body = {
      projector: checkRef(request.projector, 'projector'),
      referencePoint: checkRef(request.referencePoint, 'reference point'),
      position: request.position,
    };
    await this.api.call(endpoints.lineupCurrentPose, { body }, options);
  }

  /** Copies the projector's parameters from the current calibration into the manual fields. */
  async overwriteManualCalibration(projector: Ref, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.overwriteManualCalibration, { body: { projector: checkRef(projector, 'projector') } }, options);
  }

  async resetLineup(projector: Ref, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.resetLineup, { body: { projector: checkRef(projector, 'projector') } }, options);
  }

  async projectorCalibration(projector: Ref, options?: CallOptions): Promise<ProjectorCalibrationInfo> {
    return this.api.call(endpoints.projectorCalibration, { query: refQuery(projector, 'projector') }, options);
  }

  async referencePoints(options?: CallOptions): Promise<NamedRef[]> {
    return this.api.call(endpoints.referencePoints, {}, options);
  }
}

import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef } from './input-checks.js';
import type { Camera, MrSet, Ref, SpatialCalibration } from './types.js';

export class MixedRealityApi {
  constructor(private readonly api: EndpointCaller) {}

  async cameras(options?: CallOptions): Promise<Camera[]> {
    return this.api.call(endpoints.cameras, {}, options);
  }

  async mrSets(options?: CallOptions): Promise<MrSet[]> {
    return this.api.call(endpoints.mrSets, {}, options);
  }

  async spatialCalibrations(options?: CallOptions): Promise<SpatialCalibration[]> {
    return this.api.call(endpoints.spatialCalibrations, {}, options);
  }

  /** True while an observation capture runs; only one runs at a time. */
  async captureProgress(options?: CallOptions): Promise<boolean> {
    return this.api.call(endpoints.captureProgress, {}, options);
  }

  async captureObservation(request: { camera: Ref; spatialCalibration: Ref }, options?: CallOptions): Promise<void> {
    const body = { camera: checkRef(request.camera, 'camera'), spatialCalibration: checkRef(request.spatialCalibration, 'spatial calibration') };
    await this.api.call(endpoints.captureObservation, { body }, options);
  }

  async deleteAllObservations(spatialCalibration: Ref, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.deleteAllObservations, { body: { spatialCalibration: checkRef(spatialCalibration, 'spatial calibration') } }, options);
  }

  async deleteObservations(observationUids: readonly string[], options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.deleteObservations, { body: { observations: [...observationUids] } }, options);
  }

  async enableObservations(changes: readonly { uid: string; enable: boolean }[], options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.enableObservations, { body: { observations: [...changes] } }, options);
  }

  async selectCamera(request: { mrSet: Ref; cameraOverride: Ref }, options?: CallOptions): Promise<void> {
    const body = { mrSet: checkRef(request.mrSet, 'MR set'), cameraOverride: checkRef(request.cameraOverride, 'camera') };
    await this.api.call(endpoints.selectCamera, { body }, options);
  }

  async selectSpatialCalibration(request: { camera: Ref; spatialCalibration: Ref }, options?: CallOptions): Promise<void> {
    const body = { camera: checkRef(request.camera, 'camera'), spatialCalibration: checkRef(request.spatialCalibration, 'spatial calibration') };
    await this.api.call(endpoints.selectSpatialCalibration, { body }, options);
  }
}

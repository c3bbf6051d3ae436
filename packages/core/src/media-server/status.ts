import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef } from './input-checks.js';
import type { GuiMode, HealthEntry, NotificationEntry, ProjectInfo, Ref, SessionInfo } from './types.js';

export class StatusApi {
  constructor(private readonly api: EndpointCaller) {}

  async health(options?: CallOptions): Promise<HealthEntry[]> {
    return this.api.call(endpoints.health, {}, options);
  }

  async notifications(options?: CallOptions): Promise<NotificationEntry[]> {
    return this.api.call(endpoints.notifications, {}, options);
  }

  async project(options?: CallOptions): Promise<ProjectInfo> {
    return this.api.call(endpoints.project, {}, options);
  }

  async session(options?: CallOptions): Promise<SessionInfo> {
    return this.api.call(endpoints.session, {}, options);
  }

  async setGuiMode(request: { machine: Ref; mode: GuiMode }, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.setGuiMode, { body: { machine: checkRef(request.machine, 'machine'), mode: request.mode } }, options);
  }
}

import { DriveClient } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import type { ShowFacts } from '../gen/node-messages.js';

/** The demo drive's ids and the first page of its versions, so generated drive inputs can be right. */
export async function showFacts(sim: Simulator): Promise<ShowFacts> {
  const { driveId, contentId } = sim.drive.demoDrive;
  const drive = new DriveClient({ baseUrl: sim.drive.url, token: sim.drive.token });
  try {
    const page = await drive.versions.list({ driveId, contentId, perPage: 10 }).page();
    return { driveId, contentId, versionIds: page.data.map((version) => String(version.id)) };
  } finally {
    await drive.close();
  }
}

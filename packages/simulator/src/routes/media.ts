import type { ProvisionTransfer } from '@stagelink/core';
import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.9 (service family). */
export const mediaRoutes = {
  listMedia: (request, state) => answered({ files: state.media.list(request.query.get('directory') ?? '') }),
  provision: (request, state) => {
    const body = JsonFields.body(request);
    const transfers = body.optionalItems('transfers')?.map(
      (item): ProvisionTransfer => ({ mediaPath: item.text('mediaPath'), uid: item.optionalText('uid') ?? '', localPath: item.texts('localPath') }),
    );
    const provisionRequest = { mediaPath: body.optionalText('mediaPath'), localPath: body.optionalTexts('localPath'), uid: body.optionalText('uid'), transfers };
    return withResult(state.provisioning.provision(provisionRequest));
  },
  removeMedia: (request, state) => answered({ taskUid: state.media.remove(JsonFields.body(request).text('path')) }),
} satisfies FamilyRoutes;

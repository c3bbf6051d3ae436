// The one version a release is named by: the changesets `fixed` group's, which every package of the bundle is in.
import { join } from 'node:path';
import { ARTEFACTS } from './artefacts.mjs';
import { manifestOf, readJson } from './workspace.mjs';

/** Thrown when the packages of the bundle do not share one version (a release cut by hand, or a group left out). */
export class ReleaseVersionError extends Error {
  code = 'RELEASE_VERSION_MISMATCH';
  name = 'ReleaseVersionError';
}

/**
 * The version every artefact's package carries. Rejects when one of them is outside the changesets `fixed` group
 * or carries another version: a bundle named by one version must hold only that version.
 */
export function releaseVersion(root) {
  const [group = []] = readJson(join(root, '.changeset', 'config.json')).fixed ?? [];
  const versions = ARTEFACTS.map(({ folder }) => manifestOf(root, folder)).map(({ name, version }) => ({ name, version }));
  const outside = versions.filter(({ name }) => !group.includes(name)).map(({ name }) => name);
  if (outside.length > 0) {
    throw new ReleaseVersionError(`${outside.join(', ')} not in the changesets fixed group: add them to .changeset/config.json so one version names the bundle.`);
  }
  const distinct = [...new Set(versions.map(({ version }) => version))];
  if (distinct.length !== 1) {
    const list = versions.map(({ name, version }) => `${name} ${version}`).join(', ');
    throw new ReleaseVersionError(`The bundle's packages carry different versions (${list}): cut the release with \`pnpm release:version\`.`);
  }
  return distinct[0];
}

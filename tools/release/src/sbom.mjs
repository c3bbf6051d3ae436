// A CycloneDX 1.5 SBOM (JSON) of one artefact: the artefact itself, and every package inside it (bundled code) or,
// for a library that leaves its dependencies to npm, every package it needs from the registry.
import { createHash } from 'node:crypto';

const purlOf = ({ name, version }) => `pkg:npm/${name.replace('@', '%40')}@${version}`;

/** A uuid made from `seed`: the same artefact gives the same SBOM, so two builds of one commit compare equal. */
function stableUuid(seed) {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function component(pkg, delivery) {
  return {
    type: 'library',
    'bom-ref': purlOf(pkg),
    name: pkg.name,
    version: pkg.version,
    purl: purlOf(pkg),
    ...(pkg.license ? { licenses: [{ expression: pkg.license }] } : {}),
    properties: [{ name: 'stagelink:delivery', value: delivery }],
  };
}

/**
 * The SBOM document. `artefact` is the bundle's entry (its package `name`, `version`, `license`, the bundle `file`
 * and its `sha256`); `inside` the packages from bundleInputs; `bundled` says whether they are inside the file
 * (`bundled`) or installed by npm beside it (`npm-dependency`). `timestamp` is the release commit's time.
 */
export function cycloneDx({ artefact, inside, bundled, timestamp, tool }) {
  const root = {
    type: artefact.kind === 'npm' ? 'library' : 'application',
    'bom-ref': purlOf(artefact),
    name: artefact.name,
    version: artefact.version,
    purl: purlOf(artefact),
    ...(artefact.license ? { licenses: [{ expression: artefact.license }] } : {}),
    hashes: [{ alg: 'SHA-256', content: artefact.sha256 }],
    properties: [{ name: 'stagelink:file', value: artefact.file }],
  };
  const delivery = bundled ? 'bundled' : 'npm-dependency';
  const components = inside.map((pkg) => component(pkg, delivery));
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${stableUuid(`${artefact.file}:${artefact.sha256}`)}`,
    version: 1,
    metadata: {
      timestamp,
      tools: { components: [{ type: 'application', name: tool.name, version: tool.version }] },
      component: root,
    },
    components,
    dependencies: [{ ref: root['bom-ref'], dependsOn: components.map((entry) => entry['bom-ref']) }],
  };
}

// Installs the built package into a Node-RED user dir the way npm would: the files it publishes, nothing else.
// Quicker than packing and installing the tarball (the smoke test does that), for a runtime started many times.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

export function installPackage(userDir) {
  if (!existsSync(join(packageDir, 'dist', 'nodes', 'stagelink-server.js'))) {
    throw new Error(`The nodes are not built: run \`pnpm --filter ${pkg.name} build\` first.`);
  }
  const target = join(userDir, 'node_modules', ...pkg.name.split('/'));
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ['package.json', ...pkg.files]) {
    if (existsSync(join(packageDir, file))) cpSync(join(packageDir, file), join(target, file), { recursive: true });
  }
  addDependency(userDir, pkg.name, pkg.version);
}

/** Lists a package in the user dir's package.json, as npm would, so the palette manager shows it installed. */
export function addDependency(userDir, name, version) {
  const projectFile = join(userDir, 'package.json');
  const project = existsSync(projectFile) ? JSON.parse(readFileSync(projectFile, 'utf8')) : { name: 'node-red-project', private: true };
  project.dependencies = { ...project.dependencies, [name]: version };
  writeFileSync(projectFile, JSON.stringify(project, null, 2));
}

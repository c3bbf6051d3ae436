import { InvalidInputError, type Version } from '@stagelink/core';
import { sayingError } from '../../shared/error-words.js';
import { driveConnection } from '../../shared/connections.js';
import { handleInput, type InputContext } from '../../shared/input.js';
import { MessageProperties } from '../../shared/msg-override.js';
import type { Node, NodeAPI, NodeDef, NodeMessage } from '../../shared/node-red.js';
import { showDriveProblem } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { say, useRuntime } from '../../shared/words.js';

const DRIVE_OPERATIONS = ['list', 'get', 'update', 'delete'] as const;

/** `all`: every page as one array in one msg; `pages`: one msg per page, as it arrives. */
type ListMode = 'all' | 'pages';

/**
 * `stagelink-drive-version`: lists, reads, updates (label, set active) and deletes the versions of an asset in
 * the cloud drive. The token lives in the `stagelink-drive` config node's credentials and never appears in a
 * msg, a status or an error.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-drive-version', function StagelinkDriveVersion(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startDriveVersion(RED, this, def);
  });
}

function startDriveVersion(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  const status = new StatusLine(node);
  showDriveProblem(RED, node, def, status);

  handleInput(node, status, async (msg, context) => {
    const drive = driveConnection(RED, def.drive);
    const props = new MessageProperties(RED, node, def, msg);
    const operation = (await props.text('operation')) ?? 'list';
    if (!(DRIVE_OPERATIONS as readonly string[]).includes(operation)) {
      throw sayingError(InvalidInputError, 'error.notDriveOperation', { value: operation, choices: DRIVE_OPERATIONS.join(', ') });
    }
    const driveId = await props.requiredText('driveId', say('error.whatDriveId'));
    const contentId = await props.requiredText('contentId', say('error.whatContentId'));
    const client = drive.client;
    const { call } = context;

    if (operation === 'list') {
      const listMode = (await props.text('listMode')) ?? 'all';
      if (listMode !== 'all' && listMode !== 'pages') throw sayingError(InvalidInputError, 'error.listMode', { got: listMode });
      const perPage = await props.number('perPage', say('error.whatPerPage'));
      await list(client.versions.list({ driveId, contentId, perPage, ...call }).pages(), listMode, msg, context, status);
      return;
    }

    const versionId = await props.requiredText('versionId', say('error.whatVersionId'));
    const ref = { driveId, contentId, versionId, ...call };
    if (operation === 'get') {
      const version = await client.versions.get(ref);
      msg.payload = version;
      status.ok(describeVersion(version));
    } else if (operation === 'update') {
      const label = await props.text('label');
      // Only `true` does anything on the drive (a version is deactivated by activating another); an unchecked box sends nothing.
      const setActive = (await props.boolean('setActive')) === true ? true : undefined;
      const version = await client.versions.update({ ...ref, label, setActive });
      msg.payload = version;
      status.ok(setActive ? say('status.active', { version: version.version_number }) : say('status.labelSet'));
    } else {
      await client.versions.delete(ref);
      msg.payload = { deleted: versionId };
      status.ok(say('status.deleted'));
    }
    context.send(msg);
  });
}

async function list(
  pages: AsyncIterable<{ data: Version[]; meta: { current_page: number; last_page: number; total: number } }>,
  mode: ListMode,
  msg: NodeMessage,
  { send }: InputContext,
  status: StatusLine,
): Promise<void> {
  const all: Version[] = [];
  let count = 0;
  for await (const page of pages) {
    const { current_page: current, last_page: last, total } = page.meta;
    count++;
    if (mode === 'pages') {
      // Each page is its own msg (same _msgid), so a flow can process large assets page by page.
      send({ ...msg, payload: page.data, page: { current, last, total } });
    } else {
      all.push(...page.data);
    }
    if (last > 1) status.working(say('status.page', { current, last }));
  }
  if (mode === 'all') {
    msg.payload = all;
    send(msg);
    status.ok(say('status.versions', { count: all.length }));
  } else {
    status.ok(say('status.pages', { count }));
  }
}

function describeVersion(version: Version): string {
  const number = say(version.is_active ? 'status.active' : 'status.version', { version: version.version_number });
  return version.label ? `${number} ${version.label}` : number;
}

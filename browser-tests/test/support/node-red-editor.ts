/**
 * The Node-RED editor in Chromium, driven the way a user does it: palette drags, double clicks, the edit tray,
 * the deploy button and inject buttons. It records what the page received (HTTP bodies and comms frames) and
 * every script error, so tests can check what never reached the browser.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { until } from './until.js';

/** The few parts of the editor's global `RED` the tests read (to learn ids the canvas does not show). */
interface EditorGlobal {
  RED: {
    workspaces: { active(): string };
    nodes: {
      filterNodes(filter: { z?: string; type?: string }): { id: string; name?: string }[];
      getType(type: string): { paletteLabel?: string | (() => string) } | undefined;
      filterLinks(filter: { source: { id: string }; target: { id: string } }): unknown[];
    };
  };
}

export interface NodeStatus {
  fill: string | undefined;
  text: string;
}

export interface PickerEntry<T> {
  /** The option's value, for selectOption. */
  value: string;
  item: T;
}

const LONG_WAIT_MS = 60_000;

export class NodeRedEditor {
  readonly pageErrors: string[] = [];
  readonly #received: Promise<string>[] = [];

  private constructor(readonly page: Page) {
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
    page.on('response', (response) => this.#received.push(response.text().catch(() => '')));
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => this.#received.push(Promise.resolve(String(frame.payload)))));
  }

  /** `locale` is the browser's language, which the editor speaks (e.g. `de`); en-US unless given. */
  static async open(browser: Browser, url: string, { locale = 'en-US' }: { locale?: string } = {}): Promise<NodeRedEditor> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, locale });
    page.setDefaultTimeout(LONG_WAIT_MS);
    const editor = new NodeRedEditor(page);
    await page.goto(`${url}/`);
    await page.locator('.red-ui-palette-node[data-palette-type^="stagelink-"]').first().waitFor();
    return editor;
  }

  /** Every HTTP response body and WebSocket frame the page has received so far. */
  async receivedText(): Promise<string[]> {
    return Promise.all(this.#received);
  }

  // ---- palette and canvas --------------------------------------------------------------------------------------

  /** The node types in one palette category, in palette order. */
  async paletteTypes(category: string): Promise<string[]> {
    const nodes = this.#paletteCategory(category).locator('.red-ui-palette-node');
    return (await nodes.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-palette-type') ?? ''))).filter(Boolean);
  }

  /** Scrolls the palette to a category's last node, so the whole category shows. */
  async scrollPaletteTo(category: string): Promise<void> {
    await this.#paletteCategory(category).locator('.red-ui-palette-node').last().scrollIntoViewIfNeeded();
  }

  /** Scrolls the workspace back to the flow's top left corner. */
  async scrollWorkspaceHome(): Promise<void> {
    await this.page.locator('#red-ui-workspace-chart').evaluate((chart) => chart.scrollTo(0, 0));
  }

  /** Adds an empty flow tab with the tab bar's + button and shows it. */
  async addFlow(): Promise<void> {
    const before = await this.#activeFlow();
    await this.page.locator('#red-ui-workspace .red-ui-tab-button.red-ui-tabs-add a').click();
    await until('a new flow tab', async () => (await this.#activeFlow()) !== before);
  }

  async showFlow(label: string): Promise<void> {
    await this.page.locator(`#red-ui-workspace-tabs li.red-ui-tab[flowname="${label}"] a`).click();
    await until(`the flow "${label}" shown`, async () => (await this.page.locator(`#red-ui-workspace-tabs li.red-ui-tab.active[flowname="${label}"]`).count()) === 1);
  }

  /** Drags a node from the palette onto the canvas at (x, y) from the canvas' top left; returns its id. */
  async dropFromPalette(type: string, x: number, y: number): Promise<string> {
    const before = new Set(await this.nodesOnFlow(type));
    const source = this.page.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
    await source.scrollIntoViewIfNeeded();
    await source.hover();
    await this.page.mouse.down();
    const canvas = await this.#box(this.page.locator('#red-ui-workspace-chart'));
    await this.page.mouse.move(canvas.x + x, canvas.y + y, { steps: 12 });
    await this.page.mouse.up();
    return until(`a ${type} node on the canvas`, async () => (await this.nodesOnFlow(type)).find((id) => !before.has(id)));
  }

  /** Ids of the nodes of one type on the flow shown (only those with that name, if one is given). */
  async nodesOnFlow(type: string, name?: string): Promise<string[]> {
    return this.page.evaluate(
      ({ nodeType, nodeName }) => {
        const { RED } = window as unknown as EditorGlobal;
        const nodes = RED.nodes.filterNodes({ z: RED.workspaces.active(), type: nodeType });
        return nodes.filter((node) => nodeName === undefined || node.name === nodeName).map((node) => node.id);
      },
      { nodeType: type, nodeName: name },
    );
  }

  /** Clicks an empty corner of the canvas, which deselects everything. */
  async clearSelection(): Promise<void> {
    const canvas = await this.#box(this.page.locator('#red-ui-workspace-chart'));
    await this.page.mouse.click(canvas.x + canvas.width - 40, canvas.y + canvas.height - 40);
  }

  node(id: string): Locator {
    return this.page.locator(`g.red-ui-flow-node-group[id="${id}"]`);
  }

  /** Draws a wire from one node's output port to another's input port. */
  async wire(fromId: string, toId: string): Promise<void> {
    await this.node(fromId).locator('.red-ui-flow-port-output').hover();
    await this.page.mouse.down();
    const input = await this.#box(this.node(toId).locator('.red-ui-flow-port-input'));
    await this.page.mouse.move(input.x + input.width / 2, input.y + input.height / 2, { steps: 12 });
    await this.page.mouse.up();
    const wired = (): Promise<boolean> =>
      this.page.evaluate(
        ({ source, target }) => (window as unknown as EditorGlobal).RED.nodes.filterLinks({ source: { id: source }, target: { id: target } }).length === 1,
        { source: fromId, target: toId },
      );
    await until(`a wire from ${fromId} to ${toId}`, wired);
  }

  // ---- edit trays ----------------------------------------------------------------------------------------------

  /** Opens a node's edit tray with a double click and waits for its form. */
  async editNode(id: string, firstField: string): Promise<void> {
    await this.node(id).dblclick();
    await this.page.locator(firstField).waitFor();
  }

  /**
   * Opens a config node's tray with the button beside its field (`#node-input-btn-drive-edit`) and waits for its
   * form. The button is clicked again while the form has not come: on a busy machine a first click can land before
   * the dialog has wired the button, and nothing opens.
   */
  async editConfigNode(button: string, firstField: string): Promise<void> {
    const field = this.page.locator(firstField);
    await until(`the tray that ${button} opens`, async () => {
      if (await field.isVisible()) return true;
      await this.page.locator(button).click({ timeout: 5000 }).catch(() => undefined);
      return field.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      );
    }, 60_000);
  }

  /** The tray on top (a config node's tray opens over the node's and takes its place in the page). */
  topTray(): Locator {
    return this.page.locator('.red-ui-tray').last();
  }

  async confirmTray(): Promise<void> {
    await this.#closeTray('#node-dialog-ok, #node-config-dialog-ok');
  }

  async cancelTray(): Promise<void> {
    await this.#closeTray('#node-dialog-cancel, #node-config-dialog-cancel');
  }

  /** Cancels every tray still open (one a failed test left), so the next test starts on the bare workspace. */
  async cancelAllTrays(): Promise<void> {
    while ((await this.page.locator('.red-ui-tray').count()) > 0) await this.cancelTray();
  }

  /**
   * Clicks a stagelink search button next to a field and waits for the dropdown it fills from the live server;
   * returns the entries with the server's items.
   */
  async openPicker<T>(button: string): Promise<{ select: Locator; entries: PickerEntry<T>[] }> {
    await this.page.locator(button).click();
    const select = this.page.locator(`.form-row:has(${button}) select:not([id])`);
    await select.waitFor({ state: 'visible' });
    const values = await select.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter((value) => value !== ''));
    return { select, entries: values.map((value) => ({ value, item: JSON.parse(value) as T })) };
  }

  // ---- runtime -------------------------------------------------------------------------------------------------

  async deploy(): Promise<void> {
    const button = this.page.locator('#red-ui-header-button-deploy');
    await button.click();
    await until('the deploy to finish (the Deploy button greyed out again)', async () => (await button.getAttribute('class'))?.includes('disabled'), LONG_WAIT_MS);
  }

  /**
   * Presses an inject node's button. The runtime starts new nodes just after it answers the deploy, so a press
   * right then can be refused (404): press again until the runtime accepts it.
   */
  async pressInject(id: string): Promise<void> {
    const accepted = async (): Promise<boolean> => {
      const answer = this.page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith(`/inject/${id}`));
      await this.node(id).locator('.red-ui-flow-node-button-button').click();
      return (await answer).ok();
    };
    await until(`the runtime to accept a press of inject node ${id}`, accepted, LONG_WAIT_MS);
  }

  /** The status under a node on the canvas: its colour (green, red, ...) and its text. */
  async status(id: string): Promise<NodeStatus> {
    const shape = await this.node(id).locator('.red-ui-flow-node-status').getAttribute('class');
    const fill = /red-ui-flow-node-status-(?:dot|ring)-(\w+)/.exec(shape ?? '')?.[1];
    const text = (await this.node(id).locator('.red-ui-flow-node-status-label').textContent()) ?? '';
    return { fill, text };
  }

  // ---- help ----------------------------------------------------------------------------------------------------

  /** Shows a node type's help from the help sidebar's topics, found with its search box; returns the help text. */
  async showHelp(type: string): Promise<Locator> {
    const label = await this.#paletteLabel(type);
    await this.page.locator('#red-ui-tab-help-link-button').click();
    const sidebar = this.page.locator('.red-ui-sidebar-info', { has: this.page.locator('#red-ui-sidebar-help-show-toc') });
    const search = sidebar.locator('input.red-ui-searchBox-input');
    await search.fill('');
    await search.pressSequentially(type);
    const exactly = new RegExp(`^${escapeRegExp(label)}$`);
    const topic = sidebar.locator('.red-ui-node-list-item .red-ui-node-label', { hasText: exactly }).filter({ visible: true });
    const help = sidebar.locator('.red-ui-sidebar-help-stack > div:not(.red-ui-sidebar-help-toc) .red-ui-help').first();
    const title = help.locator('h1.red-ui-help-title', { hasText: exactly });
    // The topics list re-filters a moment after each keystroke, which can move the entry away from a click.
    await until(`the help of ${type} in the sidebar`, async () => {
      await topic.click();
      return title.isVisible();
    });
    return help;
  }

  #paletteCategory(category: string): Locator {
    return this.page.locator('.red-ui-palette-category', { has: this.page.locator('.red-ui-palette-header', { hasText: category }) });
  }

  /** The name the editor lists a node type under (its palette label, else the type). */
  async #paletteLabel(type: string): Promise<string> {
    return this.page.evaluate((nodeType) => {
      const definition = (window as unknown as EditorGlobal).RED.nodes.getType(nodeType);
      const label = typeof definition?.paletteLabel === 'function' ? definition.paletteLabel.call(definition) : definition?.paletteLabel;
      return label ?? nodeType;
    }, type);
  }

  async #activeFlow(): Promise<string> {
    return this.page.evaluate(() => (window as unknown as EditorGlobal).RED.workspaces.active());
  }

  /** Node-RED detaches a tray that another opens over, so the tray that closes is the one whose button we press. */
  async #closeTray(buttons: string): Promise<void> {
    const tray = await this.topTray().elementHandle();
    await this.topTray().locator(buttons).click();
    await until('the edit tray to close', () => tray?.evaluate((element) => !element.isConnected));
    await tray?.dispose();
  }

  async #box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await locator.boundingBox();
    if (!box) throw new Error(`${locator.toString()} is not visible on the page.`);
    return box;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

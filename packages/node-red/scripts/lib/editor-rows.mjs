// The form rows of the nodes' edit dialogs, written once. A dialog's template says what a row holds in one line,
//   <stagelink-row field="track" icon="list-ol" kind="typed" by pick optional></stagelink-row>
// and the build writes the markup Node-RED expects: the label with its icon and catalog key, the input named
// node-input-<field> (node-config-input-<field> with `config`), a typed input's hidden <field>Type, the name/uid
// choice (`by`), the search button that fills it from the live server (`pick`), and the class that lets
// StagelinkEditor.rowsFollow show the row only for the choices that read it (`optional`, or `row="<name>"`).
//
// Attributes: field (required), icon, kind (text | typed | select | checkbox | textarea | password; default text),
// width, placeholder, placeholder-i18n, label (catalog key; default <type>.label.<field>), label-id, suffix,
// suffix-i18n, autocomplete, config, by, pick, optional, row. A select's <option>s go between the tags.

const ROW = /<stagelink-row\s+([^>]*)>([\s\S]*?)<\/stagelink-row>/g;
const ATTRIBUTE = /([\w-]+)(?:="([^"]*)"|='([^']*)')?/g;

/** Replaces every <stagelink-row> of a node's editor html with its markup. */
export function expandRows(html, type) {
  return html.replace(ROW, (_, attributes, inner) => rowMarkup(type, parseAttributes(attributes), inner.trim()));
}

function parseAttributes(text) {
  const attributes = {};
  for (const [, name, doubleQuoted, singleQuoted] of text.matchAll(ATTRIBUTE)) {
    attributes[name] = doubleQuoted ?? singleQuoted ?? true;
  }
  if (typeof attributes.field !== 'string') throw new Error(`A <stagelink-row> without a field: ${text}`);
  return attributes;
}

function rowMarkup(type, row, inner) {
  const id = `${row.config ? 'node-config-input' : 'node-input'}-${row.field}`;
  const kind = row.kind ?? 'text';
  const optional = row.row ?? (row.optional ? row.field : undefined);
  const rowClass = optional ? `form-row stagelink-row-${optional}` : 'form-row';
  const parts = kind === 'checkbox' ? checkbox(type, row, id) : [label(type, row, id), ...field(type, row, id, kind, inner)];
  return [`<div class="${rowClass}">`, ...parts.map((part) => `  ${part}`), '</div>'].join('\n  ');
}

function label(type, row, id) {
  const key = labelKey(type, row);
  const span = row['label-id'] ? `<span id="${row['label-id']}" data-i18n="${key}"></span>` : `<span data-i18n="${key}"></span>`;
  return `<label for="${id}"><i class="fa fa-${row.icon ?? (row.field === 'name' ? 'tag' : 'pencil')}"></i> ${span}</label>`;
}

function labelKey(type, row) {
  if (typeof row.label === 'string') return row.label;
  return row.field === 'name' ? 'node-red:common.label.name' : `${type}.label.${row.field}`;
}

function checkbox(type, row, id) {
  return [
    '<label>&nbsp;</label>',
    `<input type="checkbox" id="${id}" style="display:inline-block; width:auto; vertical-align:top;">`,
    `<label for="${id}" style="width:auto;" data-i18n="${labelKey(type, row)}"></label>`,
  ];
}

function field(type, row, id, kind, inner) {
  const width = row.width ?? defaultWidth(kind, row);
  const style = width ? ` style="width:${width};"` : '';
  const extras = `${placeholder(row)}${row.autocomplete ? ` autocomplete="${row.autocomplete}"` : ''}`;
  const input = {
    text: `<input type="text" id="${id}"${style}${extras}>`,
    typed: `<input type="text" id="${id}"${style}${extras}>`,
    password: `<input type="password" id="${id}"${extras}>`,
    textarea: `<textarea id="${id}" rows="3"${style}${extras}></textarea>`,
    select: `<select id="${id}"${style}>${inner ? `\n      ${inner.replace(/\n\s*/g, '\n      ')}\n    ` : ''}</select>`,
  }[kind];
  if (!input) throw new Error(`<stagelink-row field="${row.field}"> has an unknown kind "${kind}"`);
  return [
    input,
    ...(kind === 'typed' ? [`<input type="hidden" id="${id}Type">`] : []),
    ...(row.by ? [byChoice(type, id)] : []),
    ...(row.pick ? [`<button type="button" class="red-ui-button" id="stagelink-pick-${row.field}"><i class="fa fa-search"></i></button>`] : []),
    ...(row.suffix ? [row.suffix] : []),
    ...(row['suffix-i18n'] ? [`<span data-i18n="${row['suffix-i18n']}"></span>`] : []),
  ];
}

/** 70% of the row, as Node-RED's own fields; less when a name/uid choice or a search button shares the row. */
function defaultWidth(kind, row) {
  if (row.by) return '50%';
  if (row.pick) return '60%';
  return kind === 'text' || kind === 'password' ? undefined : '70%';
}

function placeholder(row) {
  if (row['placeholder-i18n']) return ` data-i18n="[placeholder]${row['placeholder-i18n']}"`;
  if (typeof row.placeholder !== 'string') return '';
  return row.placeholder.includes('"') ? ` placeholder='${row.placeholder}'` : ` placeholder="${row.placeholder}"`;
}

function byChoice(type, id) {
  return [
    `<select id="${id}By" style="width:70px;">`,
    `  <option value="name" data-i18n="${type}.by.name"></option>`,
    `  <option value="uid" data-i18n="${type}.by.uid"></option>`,
    '</select>',
  ].join('\n    ');
}

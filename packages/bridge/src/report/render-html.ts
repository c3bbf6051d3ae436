import uplotScript from 'uplot/dist/uPlot.iife.min.js?raw';
import uplotStyle from 'uplot/dist/uPlot.min.css?raw';
import pageScript from './page.js?raw';
import pageStyle from './page.css?raw';
import type { CommandRow, Incident, ReportModel } from './report-model.js';
import { durationText, offsetText, wallClock } from './report-times.js';

/** The id of the script element holding the report's model as JSON. */
export const REPORT_DATA_ID = 'stagelink-report-data';

const HEALTH_KEY: [string, string][] = [
  ['ok', '#2e9d4a'],
  ['busy', '#3b7dd8'],
  ['warning', '#e0a100'],
  ['error', '#d12f2f'],
  ['offline', '#6b6b6b'],
];

/**
 * The report as one self-contained HTML page: uPlot, the charts' script and the styles are inlined, the model is
 * embedded as JSON, and nothing is loaded from the network when it is opened. The tables are plain HTML, so they
 * read (and print) without the script.
 */
export function renderReportHtml(model: ReportModel): string {
  const at = (instant: number, withDate = false) => wallClock(instant, model.offsetMinutes, withDate);
  const session = model.sessions.join(', ') || 'show';
  const title = `Show report: ${session}, ${model.days.join(', ') || at(model.from, true).slice(0, 10)}`;
  const facts = [
    `From ${at(model.from, true)} to ${at(model.to, true)} (UTC${offsetText(model.offsetMinutes)}, as the log wrote it)`,
    `${count(model.records, 'record')} read${model.skipped > 0 ? `, ${count(model.skipped, 'unreadable line')} skipped` : ''}`,
    model.sources.length > 0 ? `written by ${model.sources.join(', ')}` : '',
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${inlineText(uplotStyle, 'style')}</style>
<style>${inlineText(pageStyle, 'style')}</style>
</head>
<body>
<main>
<header>
<h1>${escapeHtml(title)}</h1>
${facts.map((fact) => `<p class="facts">${escapeHtml(fact)}</p>`).join('\n')}
</header>
<section id="fps">
<h2>FPS per machine</h2>
<div class="key">
<span style="--swatch:#1f5fbf">FPS, average</span><span style="--swatch:#d12f2f">FPS, lowest${model.machines.some((machine) => machine.fps.bucketMs > 0) ? ' (per point of the chart)' : ''}</span>
<span style="--swatch:rgba(224,161,0,0.35)">FPS stale</span><span style="--swatch:rgba(60,60,60,0.3)">live link offline</span>
<span style="--swatch:#7a3db8">director moved (dashed)</span><span style="--swatch:#1f5fbf">command</span><span style="--swatch:#d12f2f">command failed or late</span>
</div>
<div class="key">Health under each chart: ${HEALTH_KEY.map(([name, colour]) => `<span style="--swatch:${colour}">${name}</span>`).join('')}</div>
${model.machines.length === 0 ? '<p class="none">No machine in the log for this time.</p>' : model.machines.map((machine, index) => machineSection(machine, index)).join('\n')}
</section>
<section id="incidents">
<h2>Incidents (${model.incidents.length})</h2>
${incidentsTable(model.incidents, at)}
</section>
<section id="events">
<h2>Director moves and recording restarts</h2>
${eventsList(model, at)}
</section>
<section id="commands">
<h2>Commands (${model.commands.length})</h2>
${commandsTable(model.commands, at)}
</section>
</main>
<script type="application/json" id="${REPORT_DATA_ID}">${jsonForScript(model)}</script>
<!-- uPlot 1.6 (MIT License, Copyright (c) Leon Sorokin) -->
<script>${inlineText(uplotScript, 'script')}</script>
<script>${inlineText(pageScript, 'script')}</script>
</body>
</html>
`;
}

/**
 * JSON that can sit inside a script element: `<` is written as `\u003c`, so no hostname or error text can close
 * the element (`</script>`) or open a comment; U+2028 and U+2029 are escaped for older parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Library text put inside an element as is: it must not close that element early. */
function inlineText(text: string, element: 'script' | 'style'): string {
  if (text.toLowerCase().includes(`</${element}`)) throw new Error(`The report's inlined ${element} contains "</${element}": it cannot be put into the page as is.`);
  return text;
}

function machineSection(machine: ReportModel['machines'][number], index: number): string {
  const { fps } = machine;
  const summary = [
    fps.values > 0 ? `${count(fps.values, 'FPS value')}, lowest ${fps.lowest}` : 'no FPS value in this time',
    fps.bucketMs > 0 ? `each point ${durationText(fps.bucketMs)}` : '',
    machine.stale.length > 0 ? count(machine.stale.length, 'stale span') : '',
  ].filter(Boolean);
  return `<div class="machine" data-machine-index="${index}" data-machine="${escapeHtml(machine.name)}">
<h3>${escapeHtml(machine.name)}</h3>
<p class="summary">${escapeHtml(summary.join(' · '))}</p>
<div class="chart"></div>
<div class="health-band" title="health"></div>${machine.hardware.length > 0 ? '\n<div class="health-band hardware-band" title="hardware"></div>' : ''}
</div>`;
}

function incidentsTable(incidents: readonly Incident[], at: (instant: number) => string): string {
  if (incidents.length === 0) return '<p class="none">No health warning, stale value or offline link in this time.</p>';
  const rows = incidents.map(
    (incident) =>
      `<tr><td>${escapeHtml(incident.machine)}</td><td class="state-${cssName(incident.state)}">${escapeHtml(incident.state)}</td>` +
      `<td class="time">${at(incident.start)}</td><td class="number">${durationText(incident.durationMs)}${incident.end === null ? ' (still at the end)' : ''}</td>` +
      `<td>${escapeHtml(incident.detail)}</td></tr>`,
  );
  return `<table><thead><tr><th>machine</th><th>state</th><th>start</th><th>duration</th><th>detail</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function commandsTable(commands: readonly CommandRow[], at: (instant: number) => string): string {
  if (commands.length === 0) return '<p class="none">No command in this time.</p>';
  const rows = commands.map(
    (command) =>
      `<tr><td class="time">${at(command.at)}</td><td>${escapeHtml(command.command)}</td><td>${escapeHtml(command.target)}</td>` +
      `<td>${escapeHtml(command.via ?? '')}</td><td class="outcome-${cssName(command.outcome)}">${escapeHtml(command.outcome)}</td>` +
      `<td>${escapeHtml([command.error, command.code].filter(Boolean).join(' · '))}</td><td class="number">${command.ms === null ? '' : `${Math.round(command.ms)} ms`}</td>` +
      `<td>${escapeHtml(command.id ?? '')}</td></tr>`,
  );
  return `<table><thead><tr><th>time</th><th>command</th><th>for</th><th>via</th><th>outcome</th><th>error</th><th>answered in</th><th>id</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function eventsList(model: ReportModel, at: (instant: number) => string): string {
  const events = model.markers.filter((marker) => marker.kind !== 'command');
  if (events.length === 0) return '<p class="none">The director did not move and the recording ran through.</p>';
  return `<ul class="events">\n${events.map((event) => `<li><span class="time">${at(event.at)}</span> ${escapeHtml(event.label)}</li>`).join('\n')}\n</ul>`;
}

function cssName(text: string): string {
  return text.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
}

function count(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

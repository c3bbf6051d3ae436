/* global document, window, uPlot */
// The show report's charts, run in the page (inlined by render-html.ts after uPlot): one chart per machine from
// the JSON the page embeds. Times are drawn at the log's own offset, whatever the viewer's zone: the x values are
// the wall-clock time as if it were UTC, and uPlot is told to read them as UTC.
(function drawShowReport() {
  'use strict';
  var model = JSON.parse(document.getElementById('stagelink-report-data').textContent);
  var offsetSeconds = model.offsetMinutes * 60;
  var HEALTH_COLOURS = { ok: '#2e9d4a', ready: '#2e9d4a', busy: '#3b7dd8', warning: '#e0a100', error: '#d12f2f', offline: '#6b6b6b' };
  var toX = function (at) { return at / 1000 + offsetSeconds; };
  var utc = function (seconds) { return uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'); };
  var spanEnd = function (span) { return span.end === null ? model.to : span.end; };
  var stepped = uPlot.paths.stepped({ align: 1 });
  var shortWindow = model.to - model.from <= 10 * 60 * 1000;
  var tickFormat = uPlot.fmtDate(shortWindow ? '{HH}:{mm}:{ss}' : '{HH}:{mm}');
  var fullFormat = uPlot.fmtDate('{YYYY}-{MM}-{DD} {HH}:{mm}:{ss}');
  var charts = [];

  /** Read once for all the charts: reading it between two charts would lay the whole page out again each time. */
  function width() {
    var main = document.querySelector('main');
    return Math.max(480, Math.min(1400, (main ? main.clientWidth : window.innerWidth) - 8));
  }
  var chartWidth = width();

  /** Stale and offline time shaded across the plot, under the FPS lines. */
  function shade(u, spans, fill) {
    var ctx = u.ctx;
    var top = u.bbox.top;
    var height = u.bbox.height;
    ctx.save();
    ctx.fillStyle = fill;
    spans.forEach(function (span) {
      var left = u.valToPos(toX(span.start), 'x', true);
      var right = u.valToPos(toX(spanEnd(span)), 'x', true);
      ctx.fillRect(left, top, Math.max(2, right - left), height);
    });
    ctx.restore();
  }

  /** Director moves, commands and restarts of the recording: a line across the plot, one path per kind. */
  var MARKER_STYLES = [
    { colour: '#7a3db8', dash: [4, 3], test: function (marker) { return marker.kind === 'director'; } },
    { colour: '#444444', dash: [4, 3], test: function (marker) { return marker.kind === 'recording'; } },
    { colour: '#1f5fbf', dash: [], test: function (marker) { return marker.kind === 'command' && marker.ok; } },
    { colour: '#d12f2f', dash: [], test: function (marker) { return marker.kind === 'command' && !marker.ok; } },
  ].map(function (style) {
    style.markers = model.markers.filter(style.test);
    return style;
  });

  function drawMarkers(u) {
    var ctx = u.ctx;
    ctx.save();
    ctx.lineWidth = Math.max(1, window.devicePixelRatio || 1);
    MARKER_STYLES.forEach(function (style) {
      if (style.markers.length === 0) return;
      ctx.strokeStyle = style.colour;
      ctx.setLineDash(style.dash);
      ctx.beginPath();
      style.markers.forEach(function (marker) {
        var x = Math.round(u.valToPos(toX(marker.at), 'x', true));
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
      });
      ctx.stroke();
    });
    ctx.restore();
  }

  /** The health band under a chart: one coloured block per span of severity, lined up with the plot. */
  function drawHealthBand(u, band, spans) {
    var ratio = window.devicePixelRatio || 1;
    band.style.marginLeft = u.bbox.left / ratio + 'px';
    band.style.width = u.bbox.width / ratio + 'px';
    band.textContent = '';
    spans.forEach(function (span) {
      var left = Math.max(0, u.valToPos(toX(span.start), 'x'));
      var right = Math.min(u.bbox.width / ratio, u.valToPos(toX(spanEnd(span)), 'x'));
      if (right <= left) return;
      var block = document.createElement('span');
      block.className = 'health-span';
      block.style.left = left + 'px';
      block.style.width = Math.max(1, right - left) + 'px';
      block.style.background = HEALTH_COLOURS[String(span.severity).toLowerCase()] || HEALTH_COLOURS.warning;
      block.title = span.severity + (span.states ? ': ' + span.states : '');
      band.appendChild(block);
    });
  }

  model.machines.forEach(function (machine, index) {
    var section = document.querySelector('[data-machine-index="' + index + '"]');
    if (!section) return;
    var target = section.querySelector('.chart');
    var band = section.querySelector('.health-band');
    var hardwareBand = section.querySelector('.hardware-band');
    // The hardware band reads as the health band does: its reasons in the tooltip.
    var hardware = (machine.hardware || []).map(function (span) { return { start: span.start, end: span.end, severity: span.severity, states: span.reasons }; });
    var stale = machine.stale.filter(function (span) { return span.subject === 'fps'; });
    var highest = machine.fps.avg.reduce(function (max, value) { return value === null ? max : Math.max(max, value); }, 0);
    var options = {
      width: chartWidth,
      height: 180,
      tzDate: utc,
      cursor: { sync: { key: 'stagelink-report' }, drag: { x: true, y: false } },
      scales: { x: { time: true, min: toX(model.from), max: toX(model.to) }, y: { range: [0, Math.max(30, Math.ceil(highest / 10) * 10 + 5)] } },
      series: [
        { label: 'Time', value: function (u, value) { return value === null ? '--' : fullFormat(utc(value)); } },
        { label: 'FPS (average)', stroke: '#1f5fbf', width: 1.5, paths: stepped, points: { show: false } },
        { label: 'FPS (lowest)', stroke: '#d12f2f', width: 1, dash: [3, 2], paths: stepped, points: { show: false } },
      ],
      axes: [{ values: function (u, splits) { return splits.map(function (split) { return tickFormat(utc(split)); }); } }, { label: 'FPS', size: 50 }],
      hooks: {
        // The band goes right under the plot and its time axis, above the legend.
        init: [function (u) { u.root.querySelector('.u-wrap').after(band); if (hardwareBand) band.after(hardwareBand); }],
        drawClear: [function (u) { shade(u, model.offline, 'rgba(60, 60, 60, 0.22)'); shade(u, stale, 'rgba(224, 161, 0, 0.25)'); }],
        draw: [function (u) { drawMarkers(u); drawHealthBand(u, band, machine.health); if (hardwareBand) drawHealthBand(u, hardwareBand, hardware); }],
      },
    };
    var data = [machine.fps.t.map(toX), machine.fps.avg, machine.fps.min];
    charts.push(new uPlot(options, data, target));
  });

  window.addEventListener('resize', function () {
    chartWidth = width();
    charts.forEach(function (chart) { chart.setSize({ width: chartWidth, height: 180 }); });
  });
  document.body.setAttribute('data-charts-drawn', String(charts.length));
})();

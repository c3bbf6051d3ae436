// The property inspectors' shared script: plain browser JavaScript, no library and no network of its own, so
// it works at an air-gapped desk. It binds form fields to the key's settings (data-setting) and to the
// global settings (data-global), shows the connection line, and fills dropdowns (data-items) with what the
// plugin reads from the live server (see src/inspector/inspector-requests.ts for the messages). A text field with
// data-items takes a name typed or picked: its datalist offers the server's names.
'use strict';

(function () {
  var CONNECTION_REFRESH_MS = 5000;
  /** How long a refresh leaves an unanswered question to the plugin before asking again. */
  var CONNECTION_ANSWER_WAIT_MS = 15000;

  var socket = null;
  var inspectorUuid = '';
  var actionUuid = '';
  var settings = {};
  var globalSettings = {};
  // Answers can outlive the page that asked (the operator closes an inspector and opens it again): ids carry
  // a mark of this page load, so a new page never takes an old page's answer for its own.
  var pageMark = Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  var requestCount = 0;
  /** The latest request per dropdown kind: older answers are ignored. */
  var pending = {};
  var connectionTimer = null;
  var connectionAskedAt = 0;

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function nextRequestId() {
    requestCount += 1;
    return pageMark + '-' + requestCount;
  }

  function fields(selector) {
    return Array.prototype.slice.call(document.querySelectorAll(selector));
  }

  function text(value) {
    return value === undefined || value === null ? '' : String(value);
  }

  // ---- settings ----------------------------------------------------------------------------------------------

  // Number inputs, and dropdowns marked data-number (a section's index), save numbers; a value kept from an
  // older setting that is no number stays as it was, for the key to say what is wrong with it.
  function readField(field) {
    if (field.type === 'checkbox') return field.checked ? true : undefined;
    var value = field.value.trim();
    if (value === '') return undefined;
    if (field.type === 'number') return Number(value);
    if (field.hasAttribute('data-number') && /^\d+$/.test(value)) return Number(value);
    return value;
  }

  /** Puts the field's value in `target` under `name`; an emptied field takes the name out. */
  function store(target, name, field) {
    var value = readField(field);
    if (value === undefined) delete target[name];
    else target[name] = value;
  }

  function saveSetting(field) {
    var name = field.getAttribute('data-setting');
    store(settings, name, field);
    send({ event: 'setSettings', context: inspectorUuid, payload: settings });
    applyVisibility();
    refreshDependents(name);
    if (field.hasAttribute('data-marks')) noteMarked(field);
    if (name === 'host') requestConnection();
    // A name typed: the list is asked again, so the note says at once whether the server has it.
    if (field.tagName === 'INPUT' && field.hasAttribute('data-items')) requestItems(field);
  }

  function saveGlobal(field) {
    store(globalSettings, field.getAttribute('data-global'), field);
    send({ event: 'setGlobalSettings', context: inspectorUuid, payload: globalSettings });
    requestConnection();
    requestAllItems();
  }

  function showSettings() {
    fields('[data-setting]').forEach(function (field) {
      if (field.type === 'checkbox') {
        field.checked = settings[field.getAttribute('data-setting')] === true;
        return;
      }
      var value = text(settings[field.getAttribute('data-setting')]) || text(field.getAttribute('data-default'));
      if (field.tagName === 'SELECT') ensureOption(field, value);
      field.value = value;
    });
    applyVisibility();
  }

  function showGlobals() {
    fields('[data-global]').forEach(function (field) {
      var value = globalSettings[field.getAttribute('data-global')];
      if (field.type === 'checkbox') field.checked = value === true;
      else field.value = globalText(value);
    });
  }

  /**
   * A global setting as its field shows it: the hosts map of a hand-edited profile as NAME=address lines, its list of
   * backup addresses one a line.
   */
  function globalText(value) {
    if (value === null || typeof value !== 'object') return text(value);
    if (Array.isArray(value)) return value.map(text).join('\n');
    return Object.keys(value)
      .map(function (name) {
        return name + '=' + text(value[name]);
      })
      .join('\n');
  }

  /**
   * The transport commands, the fields each one takes and the playmodes, written from core at build time
   * (bin/transport-commands.js); a page without them shows every row rather than none.
   */
  var transportTable = window.STAGELINK_TRANSPORT || null;

  /** Dropdowns marked data-choices="commands" or "playmodes" are filled from that table. */
  function fillChoices() {
    fields('[data-choices]').forEach(function (select) {
      var choices = (transportTable && transportTable[select.getAttribute('data-choices')]) || [];
      choices.forEach(function (choice) {
        var option = document.createElement('option');
        option.value = choice.value;
        option.textContent = choice.label;
        option.setAttribute('data-label', choice.label);
        select.appendChild(option);
      });
    });
  }

  /** The fields the chosen command takes; undefined when no command (or no table) says. */
  function fieldsOfCommand() {
    if (!transportTable) return undefined;
    var command = text(settings.command).toLowerCase();
    for (var i = 0; i < transportTable.commands.length; i++) {
      if (transportTable.commands[i].value === command) return transportTable.commands[i].fields;
    }
    return [];
  }

  /** Rows marked data-field="track" show only while the chosen command takes that field, with their notes. */
  function applyVisibility() {
    var taken = fieldsOfCommand();
    fields('[data-field]').forEach(function (row) {
      row.hidden = taken !== undefined && taken.indexOf(row.getAttribute('data-field')) < 0;
      Array.prototype.slice.call(row.querySelectorAll('[id]')).forEach(function (field) {
        var note = document.querySelector('[data-note-for="' + field.id + '"]');
        if (note) note.hidden = row.hidden;
      });
    });
  }

  // ---- dropdowns ---------------------------------------------------------------------------------------------

  /**
   * Keeps the saved value selectable even when the server is down or no longer lists it. `why` says which:
   * undefined while the server has not answered yet (the value alone), else a few words in brackets.
   */
  function ensureOption(select, value, why) {
    if (value === '') return;
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value !== value) continue;
      if (select.options[i].hasAttribute('data-kept')) select.options[i].textContent = keptLabel(value, why);
      return;
    }
    var option = document.createElement('option');
    option.value = value;
    option.setAttribute('data-kept', '');
    option.textContent = keptLabel(value, why);
    select.appendChild(option);
  }

  function keptLabel(value, why) {
    return why ? value + ' (' + why + ')' : value;
  }

  /** Why a saved value cannot be checked, by the state of the plugin's answer. */
  var CANNOT_CHECK = {
    offline: 'server unreachable, cannot check',
    // The server answers, but its list stopped part way (the network's MTU): it is not offline.
    stalled: 'large answers fail (MTU?), cannot check',
  };

  /** The server gave no list: whether the saved value is still on it cannot be told. */
  function cannotCheck(select, state) {
    var value = text(settings[select.getAttribute('data-setting')]);
    ensureOption(select, value, CANNOT_CHECK[state] || 'cannot check now');
    select.value = value;
  }

  function fillSelect(select, items) {
    var value = text(settings[select.getAttribute('data-setting')]);
    var blank = select.getAttribute('data-blank') || '(choose)';
    while (select.firstChild) select.removeChild(select.firstChild);
    var first = document.createElement('option');
    first.value = '';
    first.textContent = blank;
    select.appendChild(first);
    items.forEach(function (item) {
      var option = document.createElement('option');
      option.value = text(item.value);
      option.textContent = text(item.label || item.value);
      select.appendChild(option);
    });
    // The server answered with its list: a saved value missing from it is really gone from the server.
    ensureOption(select, value, 'not on the server now');
    select.value = value;
  }

  /**
   * The server the key talks to: its own address, else the global one, and the machine addresses as this page has
   * them (so answers never depend on timing); the backup addresses and DNS-SD (with its interface) too for a key on the global address
   * (a key with an address of its own is on another session: none); the management controllers where the page has them.
   */
  function addHost(message) {
    var host = settings.host || globalSettings.host;
    if (host) message.host = host;
    message.hosts = globalSettings.hosts === undefined ? '' : globalSettings.hosts;
    var global = !settings.host;
    message.backupHosts = global && globalSettings.backupHosts !== undefined ? globalSettings.backupHosts : '';
    message.dnssd = global && globalSettings.dnssd === true;
    message.dnssdInterface = global && globalSettings.dnssdInterface !== undefined ? globalSettings.dnssdInterface : '';
    // The health page's hardware settings are checked by the plugin too: the connection line says what is wrong.
    if (document.getElementById('smcs')) {
      message.smcs = globalSettings.smcs === undefined ? '' : globalSettings.smcs;
      message.hardwareEvery = globalSettings.hardwareEvery === undefined ? '' : globalSettings.hardwareEvery;
    }
  }

  function requestItems(select) {
    var kind = select.getAttribute('data-items');
    var requestId = nextRequestId();
    pending[kind] = requestId;
    var message = { request: kind, requestId: requestId };
    addHost(message);
    var dependsOn = select.getAttribute('data-depends');
    if (dependsOn) {
      // Sections and notes belong to a track: nothing to list until one is chosen.
      if (!settings[dependsOn]) {
        delete pending[kind];
        fillSelect(select, []);
        setNote(select, '');
        return;
      }
      message[dependsOn] = settings[dependsOn];
    }
    setNote(select, 'loading...');
    send({ event: 'sendToPlugin', action: actionUuid, context: inspectorUuid, payload: message });
  }

  function requestAllItems() {
    fields('[data-items]').forEach(requestItems);
    fields('[data-marks]').forEach(requestMarks);
  }

  // ---- choices the director does not offer -------------------------------------------------------------------

  /** Why each marked choice is not offered, by value, from the plugin's latest answer. */
  var marked = {};

  /** Dropdowns marked data-marks="unoffered" ask which of their choices the director's own description lacks. */
  function requestMarks(select) {
    var kind = select.getAttribute('data-marks');
    var requestId = nextRequestId();
    pending[kind] = requestId;
    var message = { request: kind, requestId: requestId };
    addHost(message);
    // Busy until the answer is in: which choices the director offers is not known yet.
    select.setAttribute('aria-busy', 'true');
    send({ event: 'sendToPlugin', action: actionUuid, context: inspectorUuid, payload: message });
  }

  /**
   * The choices the director lacks stay listed, disabled and labelled with why; a key already set to one keeps it
   * (the note says why its cue is refused). An answer with an error leaves the marks as they were: the
   * connection line says what is wrong.
   */
  function markChoices(select, answer) {
    select.removeAttribute('aria-busy');
    if (answer.error) return;
    marked = {};
    (Array.isArray(answer.items) ? answer.items : []).forEach(function (item) {
      marked[text(item.value)] = text(item.label);
    });
    Array.prototype.slice.call(select.options).forEach(function (option) {
      if (!option.hasAttribute('data-label')) return;
      var why = marked[option.value];
      option.disabled = why !== undefined;
      option.textContent = why !== undefined ? why : option.getAttribute('data-label');
      if (why !== undefined) option.setAttribute('data-unoffered', '');
      else option.removeAttribute('data-unoffered');
    });
    noteMarked(select);
  }

  /** The note under a marked dropdown says why the saved choice is not offered, if it is not. */
  function noteMarked(select) {
    var why = marked[text(settings[select.getAttribute('data-setting')])];
    setNote(select, why === undefined ? '' : why + '. A key set to it is refused unsent.');
  }

  function refreshDependents(name) {
    fields('select[data-depends="' + name + '"]').forEach(requestItems);
  }

  function setNote(select, message) {
    var note = document.querySelector('[data-note-for="' + select.id + '"]');
    if (note) note.textContent = message;
  }

  /**
   * A text field's names from the server, in its datalist. The name typed stays as it is: the note says when the
   * server, having answered, does not have it, or why it could not say.
   */
  function fillList(input, answer) {
    if (answer.error) {
      setNote(input, answer.error);
      return;
    }
    var items = Array.isArray(answer.items) ? answer.items : [];
    var list = document.getElementById(input.getAttribute('list') || '');
    if (list) {
      while (list.firstChild) list.removeChild(list.firstChild);
      items.forEach(function (item) {
        var option = document.createElement('option');
        option.value = text(item.value);
        list.appendChild(option);
      });
    }
    var value = text(settings[input.getAttribute('data-setting')]);
    var listed = items.some(function (item) {
      return text(item.value) === value;
    });
    if (items.length === 0) setNote(input, 'The server lists none.');
    else setNote(input, value !== '' && !listed ? value + ' (not on the server now)' : '');
  }

  function onItems(answer) {
    if (pending[answer.response] !== answer.requestId) return;
    fields('[data-marks="' + answer.response + '"]').forEach(function (select) {
      markChoices(select, answer);
    });
    fields('[data-items="' + answer.response + '"]').forEach(function (select) {
      if (select.tagName !== 'SELECT') {
        fillList(select, answer);
        return;
      }
      if (answer.error) {
        setNote(select, answer.error);
        cannotCheck(select, answer.state);
        return;
      }
      fillSelect(select, Array.isArray(answer.items) ? answer.items : []);
      setNote(select, answer.items && answer.items.length === 0 ? 'The server lists none.' : '');
    });
  }

  // ---- connection line ---------------------------------------------------------------------------------------

  function requestConnection() {
    var message = { request: 'connection', requestId: nextRequestId() };
    pending.connection = message.requestId;
    connectionAskedAt = Date.now();
    addHost(message);
    send({ event: 'sendToPlugin', action: actionUuid, context: inspectorUuid, payload: message });
  }

  /**
   * The timer's refresh waits for the answer to the last question: an answer slower than the refresh (a busy
   * plugin, a server that takes its time) would otherwise always be overtaken, and the line would never change.
   */
  function refreshConnection() {
    if (pending.connection !== undefined && Date.now() - connectionAskedAt < CONNECTION_ANSWER_WAIT_MS) return;
    requestConnection();
  }

  function onConnection(answer) {
    if (pending.connection !== answer.requestId) return;
    delete pending.connection;
    var line = document.getElementById('connection');
    if (!line) return;
    line.className = 'connection ' + text(answer.state || 'offline');
    line.textContent = (answer.host ? answer.host.replace(/^https?:\/\//, '') + ': ' : '') + text(answer.message || answer.error);
  }

  // ---- accessibility -----------------------------------------------------------------------------------------

  /**
   * Ties each note to its field (a screen reader reads the note with the field), and the address field to the
   * connection line, which is announced when it changes (role="status", aria-live="polite" in the page).
   */
  function describeFields() {
    fields('[data-note-for]').forEach(function (note) {
      var field = document.getElementById(note.getAttribute('data-note-for'));
      if (!field) return;
      if (!note.id) note.id = field.id + '-note';
      describe(field, note.id);
    });
    var host = document.getElementById('host');
    if (host && document.getElementById('connection')) describe(host, 'connection');
  }

  function describe(field, id) {
    var ids = (field.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    if (ids.indexOf(id) < 0) ids.push(id);
    field.setAttribute('aria-describedby', ids.join(' '));
  }

  // ---- the Stream Deck app -----------------------------------------------------------------------------------

  function onMessage(event) {
    var message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    var payload = message.payload || {};
    if (message.event === 'didReceiveSettings') {
      settings = payload.settings || {};
      showSettings();
    } else if (message.event === 'didReceiveGlobalSettings') {
      globalSettings = payload.settings || {};
      showGlobals();
    } else if (message.event === 'sendToPropertyInspector') {
      if (payload.response === 'connection') onConnection(payload);
      else onItems(payload);
    }
  }

  function bindFields() {
    fields('[data-setting]').forEach(function (field) {
      field.addEventListener('change', function () {
        saveSetting(field);
      });
    });
    fields('[data-global]').forEach(function (field) {
      field.addEventListener('change', function () {
        saveGlobal(field);
      });
    });
    fields('[data-refresh]').forEach(function (button) {
      button.addEventListener('click', function () {
        requestConnection();
        requestAllItems();
      });
    });
  }

  fillChoices();
  describeFields();

  // Called by the Stream Deck app once the page has loaded.
  window.connectElgatoStreamDeckSocket = function (port, uuid, registerEvent, info, actionInfo) {
    inspectorUuid = uuid;
    try {
      var action = JSON.parse(actionInfo);
      actionUuid = action.action;
      settings = (action.payload && action.payload.settings) || {};
    } catch {
      settings = {};
    }
    bindFields();
    showSettings();
    socket = new WebSocket('ws://127.0.0.1:' + port);
    socket.onopen = function () {
      send({ event: registerEvent, uuid: uuid });
      send({ event: 'getGlobalSettings', context: uuid });
      requestConnection();
      requestAllItems();
      connectionTimer = setInterval(refreshConnection, CONNECTION_REFRESH_MS);
    };
    socket.onmessage = onMessage;
    socket.onclose = function () {
      clearInterval(connectionTimer);
    };
  };
})();

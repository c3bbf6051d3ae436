// Editor helpers shared by the stagelink nodes' dialogs. Node-RED serves this file from the package's
// resources/ folder; every stagelink node's .html loads it, so a dialog never depends on which node's
// definitions the editor happened to load first.
(function () {
  'use strict';
  if (window.StagelinkEditor) return;

  var SOURCES = ['msg', 'flow', 'global', 'env'];

  // Words the shared helpers show, from the server config node's catalog (loaded with every stagelink node).
  var CATALOG = '@stagelink/node-red/stagelink-server:stagelink-server.';
  var say = function (key, values) {
    return RED._(CATALOG + 'editor.' + key, values);
  };

  // A failed admin request's words ({ key, values } in the same catalog) in the editor's language, which may not
  // be the runtime's; null where the catalog has none (an older runtime's key), so the runtime's text is shown.
  var sayFailure = function (words) {
    if (!words || typeof words.key !== 'string') return null;
    var key = CATALOG + words.key;
    var values = words.values || {};
    var text = RED._(key, values);
    // i18next answers a missing key with the key, with or without its namespace.
    if (!text || key.slice(-text.length) === text) return null;
    // Words that go on from the request start a sentence without it (as the runtime's do).
    return values.lead === '' ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  };

  // The choice that leaves a setting to the msg property of the same name (the runtime reads a blank setting the
  // same way): the only way to leave a true/false or a number to the msg, as a typed input of those kinds cannot
  // be blank. Worded when the dialog shows, once the catalogs have loaded.
  var FROM_MSG = { value: 'frommsg', icon: 'fa fa-envelope-o', hasValue: false };
  Object.defineProperty(FROM_MSG, 'label', { enumerable: true, get: function () { return say('fromMsg'); } });

  var editor = {
    // The typed-input types a setting offers: a literal of its kind, or a msg, context or env property.
    types: {
      text: ['str'].concat(SOURCES, FROM_MSG),
      number: ['num'].concat(SOURCES, FROM_MSG),
      boolean: ['bool'].concat(SOURCES, FROM_MSG),
      json: ['json'].concat(SOURCES, FROM_MSG),
      // Text with suggestions as it is typed (Node-RED's own 'str' type, plus a completion list): any other text
      // is still accepted, so flows saved with older words keep working.
      textWith: function (choices) {
        var suggest = function (typed) {
          var wanted = String(typed || '').toLowerCase();
          return choices.filter(function (choice) { return choice.toLowerCase().indexOf(wanted) !== -1; });
        };
        return [{ value: 'str', label: 'string', icon: 'red/images/typedInput/az.svg', autoComplete: suggest }].concat(SOURCES, FROM_MSG);
      }
    },

    // A definition's label style: a name the user gave shows in italics, as in Node-RED's own nodes.
    labelStyle: function () {
      return this.name ? 'node_label_italic' : '';
    },

    // A label function (paletteLabel, outputLabels, ...) that shows an entry of the node's own catalog.
    catalogLabel: function (key) {
      return function () { return this._(key); };
    },

    // Sets up a node's dialog (call it from oneditprepare with the node) from what the dialog lists, in this order:
    //   typed:   { field: types } turns `#node-input-<field>` into a typed input whose type is kept in
    //            `#node-input-<field>Type`; types is a list or the name of one in `types` ('text', 'number', ...);
    //   choices: { field: values } fills a select with its options, each worded by the node's catalog entry
    //            `<type>.<field>.<value>` (`fromMsg` for the blank value: the setting is then read from the msg);
    //   rows:    { field: { value: rows } } shows the optional rows that the select's value reads (see rowsFollow);
    //   pickers: { field: options } adds the search button's list to the field (see picker below).
    prepare: function (node, dialog) {
      var typed = dialog.typed || {};
      eachOf(typed, function (field, types) {
        $('#node-input-' + field).typedInput({ types: typeof types === 'string' ? editor.types[types] : types, typeField: '#node-input-' + field + 'Type' });
      });
      eachOf(dialog.choices, function (field, values) { fillChoices(node, field, values); });
      eachOf(dialog.rows, function (field, rowsByValue) {
        editor.rowsFollow('#node-input-' + field, allRows(rowsByValue), function (value) { return rowsByValue[value]; });
      });
      eachOf(dialog.pickers, function (field, options) { picker(field, options, !!typed[field]); });
    },

    // Shows the `.stagelink-row-<row>` rows that `rowsFor(value)` names for the select's value, hides the other
    // optional rows, and keeps doing so as the select changes.
    rowsFollow: function (selectSelector, optionalRows, rowsFor) {
      var select = $(selectSelector);
      var showRows = function () {
        var rows = rowsFor(select.val()) || [];
        optionalRows.forEach(function (row) {
          $('.stagelink-row-' + row).toggle(rows.indexOf(row) !== -1);
        });
      };
      select.on('change', showRows);
      showRows();
    },

    // The chosen server config node, for the runtime's admin endpoints (GET /stagelink/...), which ask the
    // media server through @stagelink/core. An unsaved config node is sent by its host.
    // Its host goes as typed (`${STAGELINK_HOST}` too: the runtime reads it from the environment as the deployed
    // node does), with its tls-config node, so a venue CA is trusted before the server is deployed.
    serverQuery: function (serverField) {
      var id = $(serverField || '#node-input-server').val();
      var config = id && id !== '_ADD_' ? RED.nodes.node(id) : null;
      return { server: id && id !== '_ADD_' ? id : '', host: config && config.host ? config.host : '', tls: config && config.tls ? config.tls : '' };
    },

    // RED.notify renders its text as HTML: whatever a server or a user wrote is escaped first, so a device
    // answering at the configured address cannot run script in the editor.
    escape: function (text) {
      return $('<div></div>').text(String(text)).html();
    },

    notifyError: function (text) {
      RED.notify(editor.escape(text), 'error');
    },

    fetchList: function (list, query, done) {
      $.getJSON('stagelink/' + list, query)
        .done(function (items) { done(null, items); })
        .fail(function (xhr) {
          var answer = xhr.responseJSON || {};
          done(new Error(sayFailure(answer.words) || answer.error || xhr.statusText || say('noAnswer')));
        });
    }
  };

  function eachOf(settings, use) {
    Object.keys(settings || {}).forEach(function (field) { use(field, settings[field]); });
  }

  // Node-RED set the select's value before its options existed: it is set again once they do.
  function fillChoices(node, field, values) {
    var select = $('#node-input-' + field);
    values.forEach(function (value) {
      $('<option></option>').val(value).text(node._(node.type + '.' + field + '.' + (value || 'fromMsg'))).appendTo(select);
    });
    select.val(node[field]);
  }

  // Every row that some value of a select shows: the rows that follow the select.
  function allRows(rowsByValue) {
    return Object.keys(rowsByValue).reduce(function (all, value) {
      return all.concat(rowsByValue[value].filter(function (row) { return all.indexOf(row) === -1; }));
    }, []);
  }

  // The search button `#stagelink-pick-<field>` next to the field: loads the list from the live server and lets
  // the user pick an entry, which fills the field (typed or plain). options: list; by when the field has a
  // name/uid choice (`#node-input-<field>By`), or byUid(); entries(found) to map the answer; pickValue(item) for
  // the value picked by name; extraQuery() for more query parameters; pickType for the typed-input type a picked
  // value gets ('str' unless given).
  function picker(field, options, typed) {
    var button = $('#stagelink-pick-' + field);
    var input = $('#node-input-' + field);
    var select = $('<select style="display:none; width:70%; margin-top:4px;"></select>').insertAfter(button.closest('.form-row').children().last());
    var byUid = function () {
      return options.byUid ? options.byUid() : !!options.by && $('#node-input-' + field + 'By').val() === 'uid';
    };
    button.on('click', function () {
      var query = editor.serverQuery();
      if (options.extraQuery) $.extend(query, options.extraQuery());
      button.prop('disabled', true);
      editor.fetchList(options.list, query, function (error, items) {
        button.prop('disabled', false);
        if (error) {
          editor.notifyError(say('listFailed', { reason: error.message }));
          return;
        }
        var entries = options.entries ? options.entries(items) : items;
        select.empty().append($('<option value=""></option>').text(say(entries.length ? 'pickOne' : 'noneFound')));
        entries.forEach(function (item) {
          var label = item.name + (item.detail ? '  (' + item.detail + ')' : '') + (item.uid ? '  uid ' + item.uid : '');
          $('<option></option>').val(JSON.stringify(item)).text(label).appendTo(select);
        });
        select.show();
      });
    });
    select.on('change', function () {
      if (!select.val()) return;
      var item = JSON.parse(select.val());
      var value = byUid() ? item.uid : (options.pickValue ? options.pickValue(item) : item.name);
      if (typed) {
        input.typedInput('type', options.pickType || 'str');
        input.typedInput('value', value);
      } else {
        input.val(value);
      }
      select.hide();
    });
  }

  window.StagelinkEditor = editor;
})();

// Editor helpers shared by the stagelink nodes' dialogs. Node-RED serves this file from the package's
// resources/ folder; every stagelink node's .html loads it, so a dialog never depends on which node's
// definitions the editor happened to load first.
(function () {
  'use strict';
  if (window.StagelinkEditor) return;

  var SOURCES = ['msg', 'flow', 'global', 'env'];

  // Words the shared helpers show, from the server config node's catalog (loaded with every stagelink node).
  var say = function (key, values) {
    return RED._('@stagelink/node-red/stagelink-server:stagelink-server.editor.' + key, values);
  };

  var editor = {
    // The typed-input types a setting offers: a literal of its kind, or a msg, context or env property.
    types: {
      text: ['str'].concat(SOURCES),
      number: ['num'].concat(SOURCES),
      boolean: ['bool'].concat(SOURCES),
      json: ['json'].concat(SOURCES),
      // Text with suggestions as it is typed (Node-RED's own 'str' type, plus a completion list): any other text
      // is still accepted, so flows saved with older words keep working.
      textWith: function (choices) {
        var suggest = function (typed) {
          var wanted = String(typed || '').toLowerCase();
          return choices.filter(function (choice) { return choice.toLowerCase().indexOf(wanted) !== -1; });
        };
        return [{ value: 'str', label: 'string', icon: 'red/images/typedInput/az.svg', autoComplete: suggest }].concat(SOURCES);
      }
    },

    // Turns `#node-input-<name>` into a typed input whose type is kept in `#node-input-<name>Type`.
    typedInputs: function (typesByName) {
      Object.keys(typesByName).forEach(function (name) {
        $('#node-input-' + name).typedInput({ types: typesByName[name], typeField: '#node-input-' + name + 'Type' });
      });
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
    serverQuery: function (serverField) {
      var id = $(serverField || '#node-input-server').val();
      var config = id && id !== '_ADD_' ? RED.nodes.node(id) : null;
      return { server: id && id !== '_ADD_' ? id : '', host: config && config.host ? config.host : '' };
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
          var message = xhr.responseJSON && xhr.responseJSON.error ? xhr.responseJSON.error : xhr.statusText || say('noAnswer');
          done(new Error(message));
        });
    },

    // A search button next to an input: loads the list from the live server and lets the user pick an entry.
    // options: button, input, list; byField (a name/uid select) or byUid(); entries(found) to map the answer;
    // pickValue(item) for the value picked by name; extraQuery() for more query parameters; plainInput when the
    // input is not a typed input; pickType for the typed-input type a picked value gets ('str' unless given).
    picker: function (options) {
      var button = $(options.button);
      var input = $(options.input);
      var select = $('<select style="display:none; width:70%; margin-top:4px;"></select>').insertAfter(button.closest('.form-row').children().last());
      var byUid = function () {
        return options.byUid ? options.byUid() : !!options.byField && $(options.byField).val() === 'uid';
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
        if (options.plainInput) {
          input.val(value);
        } else {
          input.typedInput('type', options.pickType || 'str');
          input.typedInput('value', value);
        }
        select.hide();
      });
    }
  };

  window.StagelinkEditor = editor;
})();

/* cardenvs replay viewer (cardenvs.view): steps, plays and scrubs through the scenes embedded
   in the page (#cardenvs-data, written by cardenvs.view.html), one list per view.

   Data: {game, title, views: [{seat, label, scenes, log, timeline}], pool, keys, deal_starts,
   names}. A scene is stored as a list of indices into pool, one per key of keys (the lists
   "seats" and "piles" as lists of indices), so what repeats from step to step is stored once.
   Keys: left/right arrows step, space plays or pauses, Home/End jump to the start/end. */
"use strict";
(function () {
  var D = JSON.parse(document.getElementById("cardenvs-data").textContent);
  var LISTS = { seats: true, piles: true };
  function decode(row) {
    var s = {};
    D.keys.forEach(function (k, i) {
      s[k] = LISTS[k] ? row[i].map(function (r) { return D.pool[r]; }) : D.pool[row[i]];
    });
    return s;
  }
  var PAUSE = '<svg viewBox="0 0 10 10" style="display:inline;width:.8em;height:.8em">' +
    '<rect x="1" y="1" width="3" height="8"/><rect x="6" y="1" width="3" height="8"/></svg>';
  var $ = function (id) { return document.getElementById(id); };
  var state = { view: 0, step: 0, timer: null };
  var n = D.views[0].scenes.length;

  var select = $("view");
  D.views.forEach(function (v, i) {
    var o = document.createElement("option");
    o.value = String(i);
    o.textContent = v.label;
    select.appendChild(o);
  });
  select.disabled = D.views.length < 2;
  var scrub = $("scrub");
  scrub.max = String(n - 1);

  function show() {
    var view = D.views[state.view];
    var scene = decode(view.scenes[state.step]);
    Table.render($("table"), scene, null);
    scrub.value = String(state.step);
    $("stepinfo").textContent = "step " + state.step + " / " + (n - 1);
    $("first").disabled = $("prev").disabled = state.step === 0;
    $("last").disabled = $("next").disabled = state.step === n - 1;
    $("play").innerHTML = state.timer ? PAUSE + " pause" : "\u25b6 play";
    Table.log($("log"), view.log, state.step, go);
    Table.chart($("chart"), view.timeline, D.names, D.deal_starts, state.step, go);
    document.body.dataset.step = String(state.step);
    document.body.dataset.last = String(n - 1);
  }
  function go(k) {
    state.step = Math.max(0, Math.min(n - 1, k));
    if (state.step === n - 1) stop();
    show();
  }
  function stop() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
  }
  function toggle() {
    if (state.timer) { stop(); show(); return; }
    if (state.step === n - 1) state.step = 0;
    state.timer = setInterval(function () { go(state.step + 1); }, Number($("speed").value));
    show();
  }
  $("first").onclick = function () { stop(); go(0); };
  $("prev").onclick = function () { stop(); go(state.step - 1); };
  $("next").onclick = function () { stop(); go(state.step + 1); };
  $("last").onclick = function () { stop(); go(n - 1); };
  $("play").onclick = toggle;
  $("speed").onchange = function () { if (state.timer) { stop(); toggle(); } };
  scrub.oninput = function () { stop(); go(Number(scrub.value)); };
  select.onchange = function () { state.view = Number(select.value); show(); };
  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "SELECT") return;
    var keys = {
      ArrowRight: function () { stop(); go(state.step + 1); },
      ArrowLeft: function () { stop(); go(state.step - 1); },
      Home: function () { stop(); go(0); },
      End: function () { stop(); go(n - 1); },
      " ": toggle,
    };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  show();
})();

/* replay.js: a finished game's replay: its frames (the room's view after each move, from the server) drawn
   one at a time, stepped by buttons, the slider and the arrow keys; it computes no rule. */
"use strict";

(function () {
  var frames = [], at = 0;
  var $ = function (id) { return document.getElementById(id); };

  function status(t) { $("status").textContent = t; }

  function date(s) {
    if (!s) return "";
    var d = new Date(s * 1000);
    return d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
  }

  /* The lines of the step's round up to it: each frame holds what its step told. */
  function story(k) {
    var list = $("story-lines"), round = frames[k].story.round, j = k, i, li, lines;
    while (j > 0 && frames[j - 1].story.round === round) j--;
    list.replaceChildren();
    for (; j <= k; j++) {
      lines = frames[j].story.lines;
      for (i = 0; i < lines.length; i++) {
        li = Table.h("li", j === k ? "now" : "", lines[i]);
        list.appendChild(li);
      }
    }
    list.scrollTop = list.scrollHeight;
  }

  function show(k) {
    var v, n = frames.length - 1;
    if (!frames.length) return;
    at = Math.max(0, Math.min(n, k));
    v = frames[at];
    Cards.setWilds(v.wilds);
    /* the story is the replay's to draw: up to this step, not what came after */
    Table.render(Object.assign({}, v, { story: null }), null);
    story(at);
    $("line").textContent = v.story.lines.length ? v.story.lines.join(" ") : "\u00a0";
    $("where").textContent = at === 0 ? "The deal \u00b7 " + n + " moves" : "Move " + at + " of " + n;
    $("scrub").value = String(at);
    $("first").disabled = $("back").disabled = at === 0;
    $("fwd").disabled = $("last").disabled = at === n;
  }

  function step(d) { show(at + d); }

  function loaded(m) {
    var r = m.replay;
    frames = r.frames || [];
    $("scrub").max = String(frames.length - 1);
    $("scrub").disabled = false;
    if (m.room_url) {
      $("room").href = m.room_url;
      $("room").hidden = false;
    }
    status("Finished" + (m.ended ? " " + date(m.ended) : "") + " \u00b7 kept " + m.days + " days");
    show(0);
    document.body.setAttribute("data-frames", String(frames.length));
  }

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname;
    var ws = new WebSocket(url, "handfoot-1");
    ws.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (x) { return; }
      if (!m || m.v !== 1) return;
      if (m.type === "replay") loaded(m);
      else if (m.type === "gone") status("This game's replay is no longer kept.");
      ws.close(1000);
    };
    ws.onerror = function () { if (!frames.length) status("The replay could not be loaded; try again later."); };
  }

  $("first").addEventListener("click", function () { show(0); });
  $("back").addEventListener("click", function () { step(-1); });
  $("fwd").addEventListener("click", function () { step(1); });
  $("last").addEventListener("click", function () { show(frames.length - 1); });
  $("scrub").addEventListener("input", function () { show(parseInt($("scrub").value, 10) || 0); });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || !frames.length) return;
    /* the slider moves itself with the arrows; a box being typed in keeps them */
    if (t && (t.id === "scrub" || t.tagName === "INPUT" && t.type !== "checkbox")) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(frames.length - 1);
    else return;
    e.preventDefault();
  });

  var four = $("four");
  try { four.checked = localStorage.getItem("hf-four") === "1"; } catch (x) { /* private mode */ }
  document.body.classList.toggle("four", four.checked);
  four.addEventListener("change", function () {
    document.body.classList.toggle("four", four.checked);
    try { localStorage.setItem("hf-four", four.checked ? "1" : "0"); } catch (x) { /* private mode */ }
  });
  connect();
})();

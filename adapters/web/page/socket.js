/* socket.js: the one WebSocket: views in, actions out (docs/WEB.md), and the four-colour option. */
"use strict";

(function () {
  var ws = null, tries = 0, ended = false, pinger = null;

  function status(t) { document.getElementById("status").textContent = t; }

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname;
    ws = new WebSocket(url, "handfoot-1");
    ws.onopen = function () { tries = 0; status("Live"); };
    ws.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (x) { return; }
      if (!m || m.v !== 1) return;
      if (m.type === "view") Actions.draw(m);
      else if (m.type === "answer") Actions.say(m.text || "");
    };
    ws.onclose = function (e) {
      ws = null;
      if (e.code === 1000 || e.code === 1008) {
        ended = true;
        status(e.reason ? e.reason.charAt(0).toUpperCase() + e.reason.slice(1) + "." : "Closed.");
        document.getElementById("actions").replaceChildren();
        return;
      }
      status("Connection lost; trying again\u2026");
      tries++;
      setTimeout(function () { if (!ended) connect(); }, Math.min(30000, 1000 * tries * tries));
    };
  }

  Actions.setSend(function (cmd) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ v: 1, type: "act", cmd: cmd }));
    else Actions.say("Not connected.");
  });
  /* the server drops a socket that says nothing: a page that is open says so */
  pinger = setInterval(function () {
    if (ws && ws.readyState === 1) ws.send('{"v":1,"type":"ping"}');
  }, 25000);

  var four = document.getElementById("four");
  try { four.checked = localStorage.getItem("hf-four") === "1"; } catch (x) { /* private mode */ }
  document.body.classList.toggle("four", four.checked);
  four.addEventListener("change", function () {
    document.body.classList.toggle("four", four.checked);
    try { localStorage.setItem("hf-four", four.checked ? "1" : "0"); } catch (x) { /* private mode */ }
  });
  connect();
})();

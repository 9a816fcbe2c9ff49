// The live view's script: follow the table's event stream and swap in the sections that
// changed. Without it the page reloads itself (a <noscript> refresh). No library, no CDN.
(function () {
  "use strict";
  var body = document.body;
  var table = body.dataset.table;
  var tag = body.dataset.tag;
  var confirmed = Date.now(); // when the server last said this view is the newest
  var conn = document.getElementById("conn");
  var source = null;
  var quiet = null;
  var QUIET_MS = 35000; // no event nor ping this long: the stream is dead, open a new one

  function fmtTime(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang, {
      hour: "2-digit", minute: "2-digit", second: "2-digit"
    });
  }

  function fresh() {
    confirmed = Date.now();
    why = "";
    if (body.classList.contains("stale")) {
      body.classList.remove("stale");
      conn.hidden = true;
      conn.textContent = "";
    }
    clearTimeout(quiet);
    quiet = setTimeout(function () { lost(); reopen(); }, QUIET_MS);
  }

  var why = "";
  function lost(reason) {
    if (typeof reason === "string") { why = reason; }
    body.classList.add("stale");
    var ago = Math.max(0, Math.round((Date.now() - confirmed) / 1000));
    conn.textContent = (why || body.dataset.lost) + " " +
      body.dataset.stale.replace("{time}", fmtTime(confirmed)).replace("{n}", String(ago));
    conn.hidden = false;
  }

  // the wall pages through its tables when more are live than fit (six at a time)
  var PAGE = 6, PAGE_MS = 12000, page = 0;
  function pages() {
    var cards = document.querySelectorAll("#s-tables .card");
    var count = Math.max(1, Math.ceil(cards.length / PAGE));
    page = page % count;
    cards.forEach(function (c, i) { c.hidden = Math.floor(i / PAGE) !== page; });
    var pager = document.getElementById("pager");
    if (pager) {
      pager.textContent = count > 1 ? body.dataset.page
        .replace("{page}", String(page + 1)).replace("{pages}", String(count)) : "";
    }
  }
  if (document.getElementById("s-tables")) {
    pages();
    setInterval(function () { page += 1; pages(); }, PAGE_MS);
  }

  function swap(sections) {
    Object.keys(sections).forEach(function (name) {
      var box = document.getElementById("s-" + name);
      if (!box) { return; }
      var open = [];
      box.querySelectorAll("details").forEach(function (d, i) { if (d.open) { open.push(i); } });
      box.innerHTML = sections[name];
      var all = box.querySelectorAll("details");
      open.forEach(function (i) { if (all[i]) { all[i].open = true; } });
    });
    if (sections.tables !== undefined) { pages(); }
  }

  function open() {
    var url = new URL(encodeURIComponent(table) + "/events", location.href);
    url.searchParams.set("lang", document.documentElement.lang);
    if (tag) { url.searchParams.set("have", tag); }
    source = new EventSource(url.toString());
    source.onmessage = function (e) {
      var news = JSON.parse(e.data);
      swap(news.s);
      tag = e.lastEventId || tag;
      body.dataset.tag = tag;
      body.dataset.seq = String(news.seq);
      fresh();
    };
    source.addEventListener("same", fresh);
    source.addEventListener("ping", function () { if (!why) { fresh(); } });
    source.addEventListener("away", function (e) {
      clearTimeout(quiet);
      lost(JSON.parse(e.data).msg);
    });
    source.onerror = function () {
      lost();
      if (source.readyState === EventSource.CLOSED) { setTimeout(reopen, 2000); }
    };
  }

  function reopen() {
    if (source) { source.close(); }
    open();
  }

  // the phone knows when its network went: say so at once, and reconnect when it is back
  window.addEventListener("offline", function () { if (source) { source.close(); } lost(); });
  window.addEventListener("online", reopen);
  // while lost, the age counts up every second
  setInterval(function () { if (body.classList.contains("stale")) { lost(); } }, 1000);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && Date.now() - confirmed > QUIET_MS) { lost(); reopen(); }
  });
  body.dataset.seq = tag.split(".")[0];
  open();
  fresh();
})();

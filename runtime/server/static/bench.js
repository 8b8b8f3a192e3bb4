// The author's bench: a house file checked as it is typed (over /ws/bench), its diagnostics at
// their lines, its rule book in a chosen language, its differences from the base, a short
// balance study on demand, and "play it" (a table with the file).
"use strict";
let lang = pageLang();
let bookLang = lang;
let ws = null;
let seq = 0;
let timer = null;
let last = null; // the last "checked" answer
const STARTER = "id: my-house\nextends: australian\nname: My house rules\nsummary: >-\n  The Australian game, with the house's own rules.\n\nauction:\n  all_pass: no-trumps\n";
const text = () => document.getElementById("text");

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/bench?lang=${lang}`);
  ws.onopen = () => check();
  ws.onmessage = (event) => answer(JSON.parse(event.data));
  ws.onclose = () => { setTimeout(connect, 1000); };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function check() {
  seq += 1;
  document.getElementById("status").textContent = t("checking");
  localStorage.setItem("bench-text", text().value);
  send({ type: "check", text: text().value, lang: bookLang, seq });
}

function typed() {
  gutter();
  clearTimeout(timer);
  timer = setTimeout(check, 400); // debounce: one compile per pause in typing
}

// The line numbers beside the text; a line with a diagnostic is marked.
function gutter() {
  const lines = text().value.split("\n").length;
  const bad = new Set(((last && last.diagnostics) || []).map((d) => d.line));
  const g = document.getElementById("gutter");
  fill(g, ...Array.from({ length: lines }, (_, i) =>
    el("span", { class: bad.has(i + 1) ? "bad" : "", "data-line": i + 1 }, String(i + 1), "\n")));
  g.scrollTop = text().scrollTop;
}

// Put the caret at a line and column, and scroll it into view.
function jump(line, col) {
  const lines = text().value.split("\n");
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  at += Math.max(0, Math.min(col - 1, (lines[line - 1] || "").length));
  text().focus();
  text().setSelectionRange(at, at);
  const height = text().scrollHeight / Math.max(1, lines.length);
  text().scrollTop = Math.max(0, (line - 5) * height);
}

function answer(m) {
  const status = document.getElementById("status");
  if (m.type === "checked") {
    if (m.seq !== seq) return; // an answer to an older text
    last = m;
    const list = document.getElementById("diagnostics");
    fill(list, ...(m.diagnostics || []).map((d) => el("li", {},
      el("a", { href: "#", class: "at", "data-line": d.line, onclick: (e) => { e.preventDefault(); jump(d.line, d.col); } },
        el("bdi", { dir: "ltr" }, `${d.line}:${d.col}`)), ": ", el("bdi", { dir: "ltr" }, d.message))));
    for (const w of m.warnings || []) list.append(el("li", { class: "warning" }, el("bdi", { dir: "ltr" }, `${w.line}:${w.col}: ${w.message}`)));
    gutter();
    const ok = !m.error;
    status.textContent = ok ? t("compiles", { name: m.name }) : m.error.split("\n")[0];
    status.className = "status " + (ok ? "ok" : "bad");
    document.getElementById("play").disabled = !ok;
    document.getElementById("study").disabled = !ok;
    // the last good file's book and differences stay, dimmed, until the file compiles again
    for (const id of ["book", "diff-box"]) document.getElementById(id).classList.toggle("stale", !ok);
    if (ok) {
      // the server has made the links to other books absolute (opening in a new tab) and left
      // the in-book anchors (#s-play) as they are: they scroll the preview (bench.preview_book)
      // (about:srcdoc, the preview's own address, so that #s-play is not the bench page's)
      document.getElementById("book").srcdoc = m.book.replace("<head>", '<head><base href="about:srcdoc">')
        .replaceAll(' href="/books/', ` href="${location.origin}/books/`);
      const diff = document.getElementById("diff");
      fill(diff, ...m.diff.map((d) => el("tr", {}, el("td", {}, el("code", { dir: "ltr" }, d.clause)), el("td", {}, el("bdi", { dir: "ltr" }, d.text)))));
      if (!m.diff.length) diff.append(el("tr", {}, el("td", {}, t("no-differences"))));
      document.getElementById("diff-box").hidden = !m.base;
    }
  } else if (m.type === "progress") {
    const bar = document.getElementById("progress");
    bar.hidden = false; bar.max = m.total; bar.value = m.done;
    document.getElementById("study-note").textContent = t("study-progress", { done: m.done, total: m.total });
  } else if (m.type === "study") {
    studying(false);
    document.getElementById("study-note").textContent = t("study-done", { games: m.games });
    const rows = document.getElementById("study-rows");
    const pct = (v, g) => v === null || v === undefined ? "–" : (g === "game" || g === "points" ? v.toFixed(1) : (100 * v).toFixed(0) + "%");
    fill(rows, el("tr", {}, el("th", {}, ""), el("th", {}, t("this-file")), m.base ? el("th", {}, el("code", { dir: "ltr" }, m.base)) : null),
      ...m.rows.map((r) => el("tr", { class: r.significant ? "significant" : "" },
        el("td", {}, el("code", { dir: "ltr" }, `${r.group} ${r.key}`)), el("td", {}, pct(r.house, r.group)),
        m.base ? el("td", {}, pct(r.base, r.group), r.significant ? " *" : "") : null)));
  } else if (m.type === "cancelled") {
    studying(false);
    document.getElementById("study-note").textContent = t("study-cancelled");
  } else if (m.type === "error") {
    if (m.seq !== undefined && m.seq !== seq) return;
    if (["busy", "games", "nothing", "time", "failed"].includes(m.code)) studying(false);
    status.textContent = m.message;
    status.className = "status bad";
  }
}

function studying(on) {
  document.getElementById("cancel").hidden = !on;
  document.getElementById("study").hidden = on;
  if (!on) document.getElementById("progress").hidden = true;
}

async function playIt() {
  const seats = Array.from({ length: (last && last.players) || 4 }, (_, s) => ({ bot: s ? "heuristic" : null }));
  const answer = await fetch(`/api/tables?lang=${lang}`, { method: "POST", body: JSON.stringify({ house: text().value, seats, options: { suggestions: true } }) });
  const made = await answer.json();
  const status = document.getElementById("status");
  if (!answer.ok) { status.textContent = made.error; return; }
  const list = document.getElementById("link-list");
  fill(list, ...made.seats.map((link, s) => {
    const url = new URL(`${link}&lang=${lang}`, location.href).href;
    return el("li", {}, t("seat-n", { seat: s }), ": ", el("a", { href: url, class: "invite", target: "_blank" }, url));
  }));
  document.getElementById("links").hidden = false;
  window.open(new URL(`${made.seats[0]}&lang=${lang}`, location.href).href, "_blank");
}

async function render() {
  await loadStrings(lang);
  fill(document.getElementById("nav"),
    langSwitch(lang, (code) => { lang = code; bookLang = code; history.replaceState(null, "", `?lang=${code}`); render(); if (ws) ws.close(); }),
    " · ", el("a", { href: `/?lang=${lang}` }, t("new-table")),
    " · ", el("a", { href: `/books/${lang}/index.html` }, t("books")));
  fill(document.getElementById("book-lang"), ...LANGS.map((code) => el("option", { value: code, selected: code === bookLang }, code)));
}

(async () => {
  await render();
  text().value = localStorage.getItem("bench-text") || STARTER;
  gutter();
  text().addEventListener("input", typed);
  text().addEventListener("scroll", () => { document.getElementById("gutter").scrollTop = text().scrollTop; });
  document.getElementById("book-lang").addEventListener("change", (e) => { bookLang = e.target.value; check(); });
  document.getElementById("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) { text().value = await file.text(); gutter(); check(); }
  });
  document.getElementById("play").addEventListener("click", playIt);
  document.getElementById("study").addEventListener("click", () => {
    studying(true);
    document.getElementById("study-note").textContent = "";
    send({ type: "study", games: Number(document.getElementById("games").value) });
  });
  document.getElementById("cancel").addEventListener("click", () => send({ type: "cancel" }));
  connect();
})();

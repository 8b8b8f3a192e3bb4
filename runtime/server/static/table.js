// The table: one WebSocket to the server; every state message redraws the page.
"use strict";
const params = new URLSearchParams(location.search);
const TABLE = location.pathname.split("/").pop();
const TOKEN = params.get("token") || "";
let lang = pageLang();
let state = null;
let socket = null;
let showLast = false;
let chatLines = [];
let clockTimer = null;

function me() { return state.seat; }
// The id of a string about the kitty, or of its twin about the widow where the variant says widow.
function kittyWord(id) {
  return state.kitty_word === "widow" ? { "kitty-card": "widow-card", take: "take-widow", sans: "sans-widow" }[id] : id;
}
function viewer() { return state.seat === null ? 0 : state.seat; }

// Who a seat is, as the viewer sees it: "You", "Partner (across)", "Opponent (on your left)".
function who(seat) {
  if (seat === null || seat === undefined) return "";
  const n = state.players;
  const given = state.seats[seat].name;
  if (state.seat === null) return given || t("seat-n", { seat });
  if (seat === state.seat) return t("you");
  const k = (seat - state.seat + n) % n;
  let where;
  if (k === 1) where = t("left");
  else if (k === n - 1) where = t("right");
  else if (n === 4 && k === 2) where = t("across");
  else where = t("nth-left", { n: k });
  const role = state.sides[seat] === state.sides[state.seat] && state.n_sides < n ? t("partner") : t("opponent");
  return `${given || role} (${given ? role + ", " : ""}${where})`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
function act(action) { send({ type: "act", action }); }

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${TABLE}?token=${encodeURIComponent(TOKEN)}&lang=${lang}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") { state = message; SPECIALS = message.specials || {}; hideError(); draw(); }
    else if (message.type === "error") showError(message);
    else if (message.type === "chat") { chatLines.push(message); chatLines = chatLines.slice(-6); if (state) drawChat(); }
  };
  socket.onclose = (event) => {
    if (event.code === 4403) return;
    document.getElementById("status").textContent = t("connection-lost");
    setTimeout(connect, 1500);
  };
}

// The variant's rule book in the page's language, at a clause: a house file's book is the
// table's own (its link's token opens it), a built-in variant's is among the server's books.
function bookLink(clause) {
  if (!state || !state.book) return null;
  const anchor = clause ? "#" + encodeURIComponent(clause) : "";
  if (state.house) return `/api/tables/${TABLE}/book/${lang}.html?token=${encodeURIComponent(TOKEN)}${anchor}`;
  return `/books/${lang}/${state.variant}.html${anchor}`;
}

function showError(message) {
  const box = document.getElementById("error");
  fill(box, message.message);
  const link = message.clause ? bookLink(message.clause) : null;
  if (link) box.append(" ", el("a", { href: link, target: "_blank", class: "clause" }, el("code", { dir: "ltr" }, message.clause)));
  box.hidden = false;
}
function hideError() { document.getElementById("error").hidden = true; }

function sideScore() {
  const box = el("div", { class: "scores" }, el("h3", {}, t("score"), " ", el("small", {}, t("target", { target: state.target }))));
  // between hands the hand just over has scored: show the scores after it, as its summary does
  const scores = state.between_hands && state.summary ? state.summary.scores : state.scores;
  for (let side = 0; side < state.n_sides; side++) {
    const members = state.sides.map((s, seat) => (s === side ? seat : -1)).filter((s) => s >= 0);
    const label = state.n_sides === state.players ? who(members[0]) : t("side-n", { side }) + " · " + members.map(who).join(", ");
    const mine = state.seat !== null && state.sides[state.seat] === side;
    box.append(el("div", { class: "side" + (mine ? " mine" : "") }, el("span", {}, label), el("b", {}, scores[side])));
  }
  return box;
}

function suitWord(s) { return t("suit-" + s); }

function drawTop() {
  const book = bookLink(null);
  fill(document.getElementById("top"), 
    el("b", {}, state.name), " · ", t("hand-n", { n: state.hand_no }),
    " · ", langSwitch(lang, (code) => { lang = code; params.set("lang", code); history.replaceState(null, "", "?" + params); start(); }),
    book ? el("a", { href: book, target: "_blank", class: "book" }, t("rule-book")) : null,
    state.seat === null ? el("span", { class: "watching" }, t("watching")) : null);
}

function isLegal(action) { return state.legal.includes(action); }
function suggested(action) { return state.suggestion && state.suggestion.action === action; }

function drawHand() {
  const box = document.getElementById("hand");
  fill(box);
  const kitty = new Set(state.kitty);
  for (const code of state.hand) {
    let action = null;
    if (state.phase === "play" && state.to_move === state.seat) action = code;
    if (state.phase === "discard") action = "discard " + code;
    const legal = action !== null && isLegal(action);
    const card = codeEl(code, (legal ? "legal" : "dim") + (kitty.has(code) ? " from-kitty" : "") + (suggested(action) ? " suggested" : ""));
    if (kitty.has(code)) card.title = t(kittyWord("kitty-card"));
    if (legal) { card.tabIndex = 0; card.setAttribute("role", "button"); card.addEventListener("click", () => act(action)); }
    box.append(card);
  }
}

function button(action, label, cls) {
  const legal = isLegal(action);
  return el("button", { class: (cls || "") + (suggested(action) ? " suggested" : ""), disabled: !legal, "data-action": action, onclick: () => act(action) }, label);
}

function drawActions() {
  const box = document.getElementById("actions");
  fill(box);
  if (state.to_move === null || state.to_move !== state.seat) {
    if (state.to_move !== null) box.append(el("p", { class: "wait" }, t("waiting-for", { who: who(state.to_move) })));
    return;
  }
  box.append(el("p", { class: "turn" }, t("your-turn"), el("span", { id: "clock" }),
    el("small", { class: "mine-won" }, " · ", t("tricks-won"), " ", state.tricks_won[state.seat])));
  if (state.suggestion) box.append(el("p", { class: "hint" }, t("suggestion", { action: actionText(state.suggestion.action), reason: state.suggestion.reason })));
  const legal = state.legal;
  if (state.phase === "auction") {
    const ladder = el("div", { class: "ladder" });
    for (const bid of state.ladder) ladder.append(button(bid, codeEl(bid, "", true), "bid"));
    box.append(ladder, button("pass", t("pass"), "pass"));
  } else if (state.phase === "kitty") {
    box.append(button("take", t(kittyWord("take"))), button("sans", t(kittyWord("sans"))));
  } else if (state.phase === "discard") {
    box.append(el("p", {}, t("discard-n", { n: state.discard_left })));
  } else if (state.phase === "partner") {
    const row = el("div", { class: "ladder" }, t("choose-partner"), " ");
    for (const action of legal) {
      const m = /^(partner|call) (.*)$/.exec(action);
      row.append(button(action, m && m[1] === "partner" ? who(Number(m[2])) : m ? codeEl(m[2]) : action));
    }
    box.append(row);
  } else if (state.phase === "play") {
    const nominate = legal.filter((a) => a.startsWith("nominate "));
    if (nominate.length) box.append(el("div", { class: "ladder" }, t("nominate"), " ", nominate.map((a) => button(a, codeEl(a.slice(9)) ))));
    const leads = legal.filter((a) => a.includes(":"));
    if (leads.length) box.append(el("div", { class: "ladder" }, t("lead-joker"), " ", leads.map((a) => button(a, codeEl(a)))));
  }
  startClock();
}

function startClock() {
  clearInterval(clockTimer);
  if (state.clock === null || state.clock === undefined) return;
  const end = Date.now() + state.clock * 1000;
  const tick = () => {
    const node = document.getElementById("clock");
    if (!node) return clearInterval(clockTimer);
    node.textContent = " · " + t("clock-left", { n: Math.max(0, Math.ceil((end - Date.now()) / 1000)) });
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

function seatBox(seat) {
  const playing = state.to_move === seat;
  const faced = state.faced[String(seat)];
  return el("div", { class: "seat" + (playing ? " to-move" : ""), "data-seat": seat },
    el("div", { class: "who" }, who(seat), state.seats[seat].bot ? el("small", {}, " · " + t("bot")) : null,
      state.dealer === seat ? el("small", { class: "dealer" }, " · " + t("dealer")) : null),
    el("div", { class: "count" }, t("cards-held", { n: state.held[seat] }), " · ", t("tricks-won"), " ", state.tricks_won[seat]),
    faced ? el("div", { class: "faced" }, faced.map((c) => codeEl(c))) : null);
}

function drawOthers() {
  const box = document.getElementById("others");
  fill(box);
  const n = state.players;
  for (let k = 1; k < n + (state.seat === null ? 1 : 0); k++) {
    box.append(seatBox((viewer() + k - (state.seat === null ? 1 : 0) + n) % n));
  }
  if (state.seat !== null) {
    const mine = document.getElementById("mine");
    mine.classList.toggle("to-move", state.to_move === state.seat);
  }
}

function trickEl(cards, title, winner) {
  return el("div", { class: "trick-cards" }, title ? el("h4", {}, title) : null,
    cards.map((p) => el("div", { class: "played" + (winner === p.seat ? " winner" : "") }, codeEl(p.card), el("small", {}, who(p.seat)))));
}

function drawCentre() {
  const trick = document.getElementById("trick");
  fill(trick, trickEl(state.trick, t("trick"), null));
  const status = document.getElementById("status");
  fill(status);
  if (state.to_move !== null && state.to_move !== state.seat) status.append(t("waiting-for", { who: who(state.to_move) }));
}

function drawSide() {
  fill(document.getElementById("score"), sideScore());
  const c = state.contract;
  fill(document.getElementById("contract"), el("h3", {}, t("contract")),
    c ? el("p", {}, codeEl(c.bid, "", true), " ", t("by", { who: who(c.seat) }), c.sans ? " · " + t(kittyWord("sans")) : "") : el("p", {}, t("no-contract")),
    state.nominated ? el("p", { class: "nominated" }, t("joker-suit", { suit: suitWord(state.nominated) }), " ", codeEl("JK:" + state.nominated)) : null);
  fill(document.getElementById("auction"), el("h3", {}, t("auction")),
    el("ol", { class: "calls" }, state.auction.map((call) => el("li", {}, el("small", {}, who(call.seat)), " ", call.call === "pass" ? t("pass") : codeEl(call.call, "", true)))));
  const last = state.tricks[state.tricks.length - 1];
  const lastBox = document.getElementById("last");
  fill(lastBox);
  if (last) {
    lastBox.append(el("button", { id: "show-last", onclick: () => { showLast = !showLast; drawSide(); } }, t("show-last-trick")));
    if (showLast) lastBox.append(trickEl(last.cards, t("last-trick"), last.winner), el("p", {}, t("won-by", { who: who(last.winner) })));
  }
  drawChat();
}

function drawChat() {
  const box = document.getElementById("chat");
  fill(box, el("h3", {}, t("chat")),
    el("ul", { class: "chat-lines" }, chatLines.map((m) => el("li", {}, el("small", {}, m.seat === null ? t("watching") : who(m.seat)), " ", t("chat-" + m.preset)))));
  if (state.seat !== null) {
    box.append(el("div", { class: "presets" }, ["hello", "well-played", "thanks", "sorry", "oops", "good-game", "bye"].map((p) =>
      el("button", { class: "preset", onclick: () => send({ type: "chat", preset: p }) }, t("chat-" + p)))));
  }
}

function drawSummary() {
  const box = document.getElementById("summary");
  const s = state.summary;
  if (!state.between_hands || !s) { box.hidden = true; return; }
  const rows = [];
  if (s.contract === null) rows.push(el("p", {}, t("all-passed")));
  else rows.push(el("p", {}, t(s.made ? "made" : "went-down", { who: who(s.contractor), bid: codeText(s.contract, true) })));
  const table = el("table", {}, el("tr", {}, el("th", {}), el("th", {}, t("tricks-won")), el("th", {}, t("points")), el("th", {}, t("score"))));
  for (let side = 0; side < state.n_sides; side++) {
    const members = state.sides.map((x, seat) => (x === side ? seat : -1)).filter((x) => x >= 0);
    table.append(el("tr", {}, el("td", {}, members.map(who).join(", ")), el("td", {}, s.tricks_by_side[side]), el("td", {}, (s.points[side] > 0 ? "+" : "") + s.points[side]), el("td", {}, s.scores[side])));
  }
  rows.push(table);
  const record = `/api/tables/${TABLE}/hands/${s.hand_no}?token=${encodeURIComponent(TOKEN)}`;
  rows.push(el("p", {}, el("a", { href: record, download: "", class: "record" }, t("download-record"))));
  if (state.house) {
    const rules = `/api/tables/${TABLE}/rules.yaml?token=${encodeURIComponent(TOKEN)}`;
    rows.push(el("p", {}, el("a", { href: rules, download: "", class: "rules" }, t("download-rules"))));
  }
  if (s.game_over) {
    rows.unshift(el("h2", {}, t("game-over")));
    const winners = s.winner === null ? [] : state.sides.map((x, seat) => (x === s.winner ? seat : -1)).filter((x) => x >= 0);
    rows.push(el("p", { class: "winner" }, s.winner === null ? t("no-winner") : t("winner", { who: winners.map(who).join(", ") })));
  } else {
    rows.unshift(el("h2", {}, t("hand-over", { n: s.hand_no + 1 })));
    if (state.seat !== null) rows.push(el("button", { id: "next", onclick: (e) => { send({ type: "next" }); e.target.disabled = true; e.target.textContent = t("waiting-others"); } }, t("next-hand")));
  }
  fill(box, el("div", { class: "card-box" }, rows));
  box.hidden = false;
}

function draw() {
  drawTop();
  drawOthers();
  drawCentre();
  drawHand();
  drawActions();
  drawSide();
  drawSummary();
}

async function start() {
  await loadStrings(lang);
  if (socket) { socket.onclose = null; socket.close(); }
  connect();
}
start();

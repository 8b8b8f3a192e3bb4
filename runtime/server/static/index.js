"use strict";
let lang = pageLang();
let variants = [];

function seatRows() {
  const v = variants.find((x) => x.id === document.getElementById("variant").value);
  const box = document.getElementById("seats");
  fill(box);
  const n = v ? v.players : 4;
  for (let s = 0; s < n; s++) {
    const kind = el("select", { id: `seat-${s}` },
      el("option", { value: "" }, t("person")),
      el("option", { value: "heuristic", selected: s > 0 }, t("bot-heuristic")),
      el("option", { value: "search" }, t("bot-search")),
      el("option", { value: "random" }, t("bot-random")));
    box.append(el("label", { class: "seat-row" }, t("seat-n", { seat: s }), " ", kind, " ",
      el("input", { id: `name-${s}`, placeholder: t("name"), maxlength: 40, size: 12 })));
  }
}

async function render() {
  await loadStrings(lang);
  // the variants' names in the page's language
  variants = await (await fetch(`/api/variants?lang=${lang}`)).json();
  fill(document.getElementById("nav"), 
    langSwitch(lang, (code) => { lang = code; history.replaceState(null, "", `?lang=${code}`); render(); }),
    " · ", el("a", { href: `/books/${lang}/index.html` }, t("books")),
    " · ", el("a", { href: `/bench?lang=${lang}` }, t("bench")));
  const select = document.getElementById("variant");
  const keep = select.value || "australian";
  fill(select, ...variants.map((v) => el("option", { value: v.id, selected: v.id === keep }, `${v.name} (${t("players-n", { n: v.players })})`)));
  const clock = document.getElementById("clock");
  fill(clock, el("option", { value: 0 }, t("no-clock")), ...[7, 15, 30, 60].map((n) => el("option", { value: n }, t("seconds", { n }))));
  seatRows();
}

async function openTable(event) {
  event.preventDefault();
  const v = variants.find((x) => x.id === document.getElementById("variant").value);
  const seats = [];
  for (let s = 0; s < (v ? v.players : 6); s++) {
    const kind = document.getElementById(`seat-${s}`);
    if (!kind) break;
    seats.push({ bot: kind.value || null, name: document.getElementById(`name-${s}`).value });
  }
  const body = {
    variant: document.getElementById("variant").value,
    house: document.getElementById("house").value,
    seats,
    options: {
      suggestions: document.getElementById("suggestions").checked,
      watchers: document.getElementById("watchers").checked,
      autoplay: document.getElementById("autoplay").checked,
      clock: Number(document.getElementById("clock").value),
    },
  };
  const answer = await fetch(`/api/tables?lang=${lang}`, { method: "POST", body: JSON.stringify(body) });
  const made = await answer.json();
  const problems = document.getElementById("problems");
  if (!answer.ok) { problems.hidden = false; problems.textContent = made.error; return; }
  problems.hidden = true;
  const list = document.getElementById("link-list");
  fill(list);
  made.seats.forEach((link, s) => {
    const url = new URL(`${link}&lang=${lang}`, location.href).href;
    list.append(el("li", {}, t("seat-n", { seat: s }), ": ", el("a", { href: url, class: "invite", target: "_blank" }, url)));
  });
  if (made.watch) {
    const url = new URL(`${made.watch}&lang=${lang}`, location.href).href;
    list.append(el("li", {}, t("watch-link"), ": ", el("a", { href: url, class: "watch" }, url)));
  }
  document.getElementById("links").hidden = false;
}

(async () => {
  await render();
  document.getElementById("variant").addEventListener("change", seatRows);
  document.getElementById("new").addEventListener("submit", openTable);
})();

// dnetwork monitor page: polls /api/state and draws the field, the robots and the tables.
// Everything is built with DOM calls and textContent; nothing from the network becomes markup.
"use strict";

const POLL_MS = 400;
const SVG_NS = "http://www.w3.org/2000/svg";
const CM = 100; // SVG user units per metre
const COLOURS = {
  blue: "#2f6fdf", red: "#d9423b", yellow: "#f0c419", black: "#2a2a2a", white: "#f6f6f6",
  green: "#4cc26a", orange: "#f28b24", purple: "#8b4fd1", brown: "#8a5a35", gray: "#8d96a3",
};
const FALLBACK = ["#2f6fdf", "#d9423b", "#f0c419", "#8b4fd1", "#f28b24", "#4cc26a"];

let fieldKey = "";
let updates = 0;

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function teamColour(teams, t) {
  const i = teams.findIndex((x) => x.team === t);
  const team = teams[i];
  if (team && COLOURS[team.colour]) return COLOURS[team.colour];
  return FALLBACK[(i < 0 ? t : i) % FALLBACK.length];
}

function textColour(bg) {
  const n = parseInt(bg.slice(1), 16);
  const l = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return l > 150 ? "#111" : "#fff";
}

// mmss shows seconds as the GameController does: "05:00", "-00:35".
function mmss(s) {
  const neg = s < 0;
  s = Math.abs(s);
  const t = `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  return neg ? "-" + t : t;
}

// linkCell shows how a robot's team messages reach the monitor: loss and jitter, with
// the counts behind them in the tooltip; a lossy link is marked.
function linkCell(l) {
  if (!l) return el("td", { class: "num link" }, "–");
  const loss = l.loss === null ? "–" : `${Math.round(100 * l.loss)}%`;
  const jitter = l.jitter_ms === null ? "–" : `${fmt(l.jitter_ms, 1)}`;
  const td = el("td", { class: "num link" + (l.loss !== null && l.loss > 0.2 ? " bad-count" : "") }, `${loss} · ${jitter}`);
  td.title = [l.loss !== null && `${l.expected - l.received} of ${l.expected} team messages lost`,
    l.jitter_ms !== null && `jitter ${l.jitter_ms} ms`, `${l.duplicates} duplicates, ${l.reordered} out of order`]
    .filter(Boolean).join("\n");
  return td;
}

function fmt(v, digits) {
  return v === null || v === undefined ? "–" : v.toFixed(digits);
}

function words(s) {
  return (s || "").replace(/_/g, " ");
}

// Field coordinates (metres, +x to the goal the team attacks, +y to its left) to SVG.
function toSVG(x, y) {
  return [x * CM, -y * CM];
}

function drawField(f) {
  const key = JSON.stringify(f);
  if (key === fieldKey) return;
  fieldKey = key;
  const field = document.getElementById("field");
  const hl = f.length / 2, hw = f.width / 2, b = f.border;
  field.setAttribute("viewBox", `${-(hl + b) * CM} ${-(hw + b) * CM} ${(f.length + 2 * b) * CM} ${(f.width + 2 * b) * CM}`);
  const g = document.getElementById("field-lines");
  g.replaceChildren();
  g.appendChild(svg("rect", { class: "grass", x: -(hl + b) * CM, y: -(hw + b) * CM, width: (f.length + 2 * b) * CM, height: (f.width + 2 * b) * CM }));
  const stripes = 9;
  for (let i = 0; i < stripes; i += 2) {
    const w = f.length / stripes;
    g.appendChild(svg("rect", { class: "stripe", x: (-hl + i * w) * CM, y: -hw * CM, width: w * CM, height: f.width * CM }));
  }
  const lines = svg("g", { class: "lines" });
  lines.appendChild(svg("rect", { x: -hl * CM, y: -hw * CM, width: f.length * CM, height: f.width * CM }));
  lines.appendChild(svg("line", { x1: 0, y1: -hw * CM, x2: 0, y2: hw * CM }));
  lines.appendChild(svg("circle", { cx: 0, cy: 0, r: (f.centre_circle_diameter / 2) * CM }));
  for (const side of [-1, 1]) {
    const pa = f.penalty_area_length, pw = f.penalty_area_width;
    const ga = f.goal_area_length, gw = f.goal_area_width;
    lines.appendChild(svg("rect", { x: (side > 0 ? hl - pa : -hl) * CM, y: -pw / 2 * CM, width: pa * CM, height: pw * CM }));
    lines.appendChild(svg("rect", { x: (side > 0 ? hl - ga : -hl) * CM, y: -gw / 2 * CM, width: ga * CM, height: gw * CM }));
    g.appendChild(svg("rect", { class: "goal", x: (side > 0 ? hl : -hl - f.goal_depth) * CM, y: -f.goal_width / 2 * CM, width: f.goal_depth * CM, height: f.goal_width * CM }));
    g.appendChild(svg("circle", { class: "spot", cx: side * (hl - f.penalty_mark_distance) * CM, cy: 0, r: 5 }));
  }
  g.appendChild(svg("circle", { class: "spot", cx: 0, cy: 0, r: 5 }));
  g.appendChild(lines);
}

// Poses arrive in each robot's own frame; a team that attacks left is drawn mirrored.
function displayPose(p, mirror) {
  return mirror ? { x: -p.x, y: -p.y, theta: p.theta + Math.PI } : p;
}

function drawRobots(state) {
  const robotsG = document.getElementById("robots");
  const ballsG = document.getElementById("balls");
  const robots = [], balls = [], labels = [], bodies = [];
  for (const r of state.robots) {
    if (!r.pose) continue;
    const team = state.teams.find((t) => t.team === r.team);
    const mirror = team && team.attacks === "left";
    const p = displayPose(r.pose, mirror);
    const colour = teamColour(state.teams, r.team);
    const [sx, sy] = toSVG(p.x, p.y);
    const cls = ["robot", r.online ? "online" : "offline"];
    const g = svg("g", {
      class: cls.join(" "), transform: `translate(${sx.toFixed(1)} ${sy.toFixed(1)})`,
      "data-team": r.team, "data-player": r.player, "data-x": r.pose.x, "data-y": r.pose.y,
      "data-theta": r.pose.theta, "data-online": r.online, "data-role": r.role || "",
    });
    const title = svg("title", {}, `team ${r.team} player ${r.player}`);
    g.appendChild(title);
    if (r.fallen || r.penalised) g.appendChild(svg("circle", { class: "alert", r: 33 }));
    const dx = Math.cos(p.theta) * 42, dy = -Math.sin(p.theta) * 42;
    g.appendChild(svg("line", { class: "heading", x1: 0, y1: 0, x2: dx.toFixed(1), y2: dy.toFixed(1) }));
    g.appendChild(svg("circle", { class: "body", r: 25, fill: colour }));
    g.appendChild(svg("text", { class: "number", fill: textColour(colour) }, String(r.player)));
    const label = r.fallen ? "fallen" : r.penalised ? "penalised" : r.role && r.role !== "none" ? r.role : "";
    if (label) {
      const text = svg("text", { class: "role", y: 52 }, label);
      g.appendChild(text);
      labels.push({ text, x: sx, y: sy });
    }
    bodies.push({ x: sx, y: sy, r: r.fallen || r.penalised ? 36 : 28 });
    robots.push(g);
    if (r.ball) {
      const b = mirror ? { x: -r.ball.x, y: -r.ball.y } : r.ball;
      const [bx, by] = toSVG(b.x, b.y);
      balls.push(svg("line", { class: "ball-link", x1: sx.toFixed(1), y1: sy.toFixed(1), x2: bx.toFixed(1), y2: by.toFixed(1), stroke: colour }));
      const old = r.ball.age_s !== null && r.ball.age_s > 2;
      balls.push(svg("circle", {
        class: old ? "ball old" : "ball", cx: bx.toFixed(1), cy: by.toFixed(1), r: 11,
        "data-team": r.team, "data-player": r.player, "data-x": r.ball.x, "data-y": r.ball.y,
      }));
    }
  }
  robotsG.replaceChildren(...robots);
  ballsG.replaceChildren(...balls);
  placeLabels(labels, bodies);
}

// Where a role label may go around its robot (SVG units, from the robot's centre):
// below, above, beside, then diagonally and further out. Robots that stand close
// together (a duel for the ball, a defender beside its goalie) would otherwise write
// their labels over each other and over their neighbours.
const LABEL_SPOTS = [
  [0, 52, "middle"], [0, -40, "middle"], [34, 7, "start"], [-34, 7, "end"],
  [26, 46, "start"], [-26, 46, "end"], [26, -34, "start"], [-26, -34, "end"],
  [0, 76, "middle"], [0, -64, "middle"], [56, 7, "start"], [-56, 7, "end"],
];

// placeLabels moves each label to the first spot where it covers neither a label
// already placed nor a robot; where every spot covers something, to the one that
// covers least. Labels are measured as drawn (getBBox), so the font decides.
function placeLabels(labels, bodies) {
  const placed = [];
  const overlap = (a, b) => Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)) * Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const covers = (box, c) => {
    const nx = Math.max(box.x1, Math.min(c.x, box.x2)), ny = Math.max(box.y1, Math.min(c.y, box.y2));
    const d = Math.hypot(nx - c.x, ny - c.y);
    return d < c.r ? (c.r - d) * (box.x2 - box.x1) : 0;
  };
  for (const l of labels) {
    let best = null;
    for (const [dx, dy, anchor] of LABEL_SPOTS) {
      l.text.setAttribute("x", dx);
      l.text.setAttribute("y", dy);
      l.text.setAttribute("text-anchor", anchor);
      const bb = l.text.getBBox();
      const box = { x1: l.x + bb.x - 2, y1: l.y + bb.y - 1, x2: l.x + bb.x + bb.width + 2, y2: l.y + bb.y + bb.height + 1 };
      let cost = 0;
      for (const p of placed) cost += overlap(box, p);
      for (const c of bodies) cost += covers(box, c);
      if (!best || cost < best.cost) best = { cost, dx, dy, anchor, box };
      if (cost === 0) break;
    }
    l.text.setAttribute("x", best.dx);
    l.text.setAttribute("y", best.dy);
    l.text.setAttribute("text-anchor", best.anchor);
    placed.push(best.box);
  }
}

function drawHeader(state) {
  const gc = state.gamecontroller;
  const game = gc.game;
  const line = document.getElementById("gc-line");
  line.replaceChildren();
  const dot = el("span", { class: "dot" + (gc.online ? (gc.multiple ? " warn" : " on") : "") });
  line.appendChild(dot);
  if (!game) {
    line.appendChild(document.createTextNode(gc.packets ? "GameController offline" : "waiting for the GameController…"));
  } else {
    let text = `GameController ${gc.online ? "" : "offline · "}${gc.source} · ${game.layout} · ${fmt(gc.rate, 1)}/s`;
    if (gc.multiple) text += ` · ${gc.sources.length} GameControllers: ${gc.sources.join(", ")}`;
    if (gc.warning) text += ` · ⚠ ${gc.warning}`;
    const td = gc.true_data;
    if (td && td.online) text += ` · true data ${fmt(td.age_s, 1)} s ago, ${td.forwarded} return packets forwarded`;
    else if (td && td.requested && !td.refused) text += " · asking for true data…";
    if (td && td.warning) text += ` · ⚠ ${td.warning}`;
    line.appendChild(document.createTextNode(text));
  }
  const stateEl = document.getElementById("state");
  const left = document.getElementById("score-left"), right = document.getElementById("score-right");
  const setTeam = (node, t) => {
    node.querySelector(".label").textContent = t ? `Team ${t.team}` : "–";
    node.querySelector(".chip").style.background = t ? teamColour(state.teams, t.team) : "#7a8494";
  };
  if (!game) {
    stateEl.textContent = "NO GAMECONTROLLER";
    stateEl.className = "state";
    document.getElementById("clock").textContent = "--:--";
    document.getElementById("detail").textContent = "";
    document.getElementById("score").textContent = "– : –";
    setTeam(left, state.teams[0]);
    setTeam(right, state.teams[1]);
    return;
  }
  stateEl.textContent = game.state.toUpperCase();
  stateEl.className = "state " + game.state;
  document.getElementById("clock").textContent = mmss(game.secs_remaining);
  const [a, b] = game.teams;
  setTeam(left, a);
  setTeam(right, b);
  document.getElementById("score").textContent = `${a.score} : ${b.score}`;
  const detail = [game.first_half ? "1st half" : "2nd half"];
  if (game.game_phase !== "normal") detail.push(words(game.game_phase));
  if (game.set_play !== "none") detail.push(words(game.set_play));
  if (game.stopped) detail.push("stopped");
  if (game.drop_ball) detail.push("drop ball");
  else if (game.set_play_team) detail.push(`kick: team ${game.set_play_team}`);
  else if (game.kicking_team_number) detail.push(`kick-off: team ${game.kicking_team_number}`);
  if (game.secondary_time) detail.push(`secondary ${mmss(game.secondary_time)}`);
  detail.push(game.budget_counted ? "budget counting" : "budget paused");
  // The true data may differ from what the robots are told (e.g. PLAYING during the delay
  // in which the robots still see SET).
  const truth = gc.true_data && gc.true_data.online ? gc.true_data.game : null;
  if (truth && (truth.state !== game.state || truth.set_play !== game.set_play)) {
    detail.push(`true: ${truth.state.toUpperCase()}${truth.set_play !== "none" ? " " + words(truth.set_play) : ""} (robots see ${game.state.toUpperCase()})`);
  }
  document.getElementById("detail").textContent = detail.join(" · ");
}

function drawTeams(state) {
  const box = document.getElementById("teams");
  const cards = [];
  for (const t of state.teams) {
    const card = el("div", { class: "team-card", "data-team": t.team });
    const h = el("h3");
    const chip = el("span", { class: "chip" });
    chip.style.background = teamColour(state.teams, t.team);
    h.append(chip, document.createTextNode(`Team ${t.team}`));
    h.appendChild(el("span", { class: "attack" }, t.attacks === "left" ? "◀ attacks left" : t.attacks === "right" ? "attacks right ▶" : "not in this game"));
    card.appendChild(h);
    const dl = el("dl");
    const row = (k, v) => dl.append(el("dt", {}, k), el("dd", {}, v));
    row("robots online", `${t.robots_online} / ${t.robots}`);
    row("format", t.formats && t.formats.length ? t.formats.join(", ") : "–");
    row("messages", `${t.messages} · ${fmt(t.rate, 2)}/s${t.port ? ` · port ${t.port}` : ""}`);
    row("budget", t.budget_remaining === null ? `${t.counted} counted` : `${t.counted} counted · ${t.budget_remaining} left (GC)`);
    if (t.gc_used !== null && t.gc_used !== undefined) {
      // What the monitor heard in counted states against what the GameController counted.
      const d = t.budget_diff;
      const dd = el("dd", { class: "budget-diff" + (d !== 0 ? " bad-count" : "") },
        `GC counted ${t.gc_used} · ${d > 0 ? "+" : ""}${d} heard here`);
      dd.title = d > 0 ? "the monitor heard messages the GameController did not count"
        : d < 0 ? "the GameController counted messages the monitor did not hear" : "the monitor and the GameController agree";
      dl.append(el("dt", {}, "vs GC"), dd);
    }
    row("malformed / illegal", `${t.malformed} / ${t.illegal}${t.over_budget ? ` (${t.over_budget} over budget)` : ""}`);
    card.appendChild(dl);
    if (t.budget_remaining !== null) {
      const total = t.counted + t.budget_remaining;
      const used = total > 0 ? Math.min(1, t.counted / total) : 1;
      const bar = el("div", { class: "bar", title: "share of the budget used since the monitor started" });
      const fill = el("div", { class: used > 0.9 ? "bad" : used > 0.7 ? "warn" : "" });
      fill.style.width = `${(used * 100).toFixed(1)}%`;
      bar.appendChild(fill);
      card.appendChild(bar);
    }
    cards.push(card);
  }
  box.replaceChildren(...cards);
}

function drawTable(state) {
  const body = document.getElementById("robots-body");
  const rows = [];
  let lastTeam = null;
  for (const r of state.robots) {
    if (r.team !== lastTeam) {
      lastTeam = r.team;
      const tr = el("tr", { class: "team-row" });
      tr.appendChild(el("td", { colspan: 11 }, `Team ${r.team}`));
      rows.push(tr);
    }
    const tr = el("tr", { class: r.online ? "online" : "offline", "data-team": r.team, "data-player": r.player });
    const id = el("td");
    const wrap = el("span", { class: "robot-id" });
    const chip = el("span", { class: "chip" });
    chip.style.background = teamColour(state.teams, r.team);
    wrap.append(chip, document.createTextNode(`${r.team} / ${r.player}`));
    id.appendChild(wrap);
    id.title = [r.team_msgs.source && `team ${r.team_msgs.source}`, r.return_msgs.source && `return ${r.return_msgs.source}`,
      r.format && `format ${r.format} (${r.auth})`, r.pose_source && `pose from ${r.pose_source}`].filter(Boolean).join("\n");
    tr.appendChild(id);
    tr.appendChild(el("td", {}, r.role && r.role !== "none" ? r.role : "–"));
    tr.appendChild(el("td", {}, r.play_state ? words(r.play_state) : "–"));
    tr.appendChild(el("td", { class: "num" }, r.team_msgs.count ? fmt(r.team_msgs.rate, 2) : "–"));
    tr.appendChild(el("td", { class: "num" }, r.return_msgs.count ? fmt(r.return_msgs.rate, 2) : "–"));
    tr.appendChild(el("td", { class: "num" }, `${fmt(r.age_s, 1)} s`));
    const team = state.teams.find((t) => t.team === r.team);
    const share = team && team.counted ? ` (${Math.round((100 * r.counted) / team.counted)}%)` : "";
    tr.appendChild(el("td", { class: "num" }, `${r.counted}${share}`));
    const bad = el("td", { class: "num" + (r.malformed || r.illegal ? " bad-count" : "") }, `${r.malformed} / ${r.illegal}`);
    if (r.last_error) bad.title = r.last_error;
    tr.appendChild(bad);
    const clockCell = el("td", { class: "num clock-offset" },
      r.clock ? `${r.clock.offset_ms >= 0 ? "+" : ""}${r.clock.offset_ms.toFixed(1)}±${r.clock.bound_ms.toFixed(1)}` : "–");
    clockCell.title = [r.clock && `clock minus robot ${r.clock.ref}'s: ${r.clock.offset_ms} ms ± ${r.clock.bound_ms} ms`,
      r.echo && `last packet answered robot ${r.echo.player}, held ${r.echo.hold_ms} ms`].filter(Boolean).join("\n");
    tr.appendChild(clockCell);
    tr.appendChild(linkCell(r.link));
    const st = el("td", { class: "status" });
    st.appendChild(el("span", { class: "badge " + (r.online ? "online" : "offline") }, r.online ? "online" : "offline"));
    if (r.fallen) st.appendChild(el("span", { class: "badge fallen" }, "fallen"));
    if (r.penalised) {
      // The league is known: "spl_player_pushing" reads "player pushing".
      const p = r.penalty && r.penalty !== "none" ? words(r.penalty.replace(/^(spl|hl)_/, "")) : "penalised";
      st.appendChild(el("span", { class: "badge penalised" }, r.secs_till_unpenalised ? `${p} ${r.secs_till_unpenalised}s` : p));
    }
    tr.appendChild(st);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
  document.getElementById("empty").style.display = state.robots.length ? "none" : "block";
  const src = document.getElementById("sources");
  src.replaceChildren();
  if (state.sources.length || state.dropped_robots) {
    src.appendChild(el("b", {}, "Unknown senders: "));
    const parts = state.sources.map((s) => `${s.source} → ${s.kind} :${s.port} (${s.packets} bad: ${s.last_error})`);
    if (state.dropped_robots) parts.push(`${state.dropped_robots} packets of robots beyond the limit`);
    src.appendChild(document.createTextNode(parts.join(" · ")));
  }
}

// drawFlags lists the hosts heard on ports the rules do not allow.
function drawFlags(state) {
  const box = document.getElementById("port-flags");
  const flags = state.port_flags || [];
  box.replaceChildren();
  box.hidden = !flags.length;
  if (!flags.length) return;
  box.appendChild(el("b", {}, "Off the rules: "));
  const list = el("ul");
  for (const f of flags) {
    const li = el("li", { "data-host": f.host, "data-port": f.port },
      `${f.host} → :${f.port}${f.team ? ` (team ${f.team})` : ""}: ${f.packets} packets, ${f.reason}`);
    list.appendChild(li);
  }
  box.appendChild(list);
}

function drawPorts(state) {
  const f = document.getElementById("ports");
  const items = state.ports.map((p) => {
    // Live: the socket's state (red unless up). Replay: green while the recording
    // carries datagrams on the port at the replay position, grey while it does not.
    const replayDot = { heard: " up", silent: " idle" };
    const title = Object.hasOwn(replayDot, p.state)
      ? `${p.state === "heard" ? "datagrams" : "no datagram"} in the last ${state.offline_after_s} s of the recording`
      : p.error || p.interface;
    const s = el("span", { class: "port", title, "data-state": p.state });
    s.appendChild(el("span", { class: "dot" + (p.state === "up" ? " up" : replayDot[p.state] || "") }));
    s.appendChild(document.createTextNode(`${p.name} :${p.port} — ${p.received} received, ${p.malformed} malformed`));
    return s;
  });
  items.push(el("span", {}, `${state.league.toUpperCase()} · cap ${state.size_cap} B · offline after ${state.offline_after_s} s · rates over ${state.rate_window_s} s`));
  f.replaceChildren(...items);
}

// Replay controls (dnetwork monitor --replay): play/pause, speed and a time slider over
// the whole recording. While the slider is dragged, polling leaves it alone.
let replay = null;
let sliderBusy = false;
let hashApplied = false;

function seconds(s) {
  return mmss(Math.floor(s));
}

async function replayCommand(cmd) {
  try {
    const res = await fetch("api/replay", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(cmd),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    render(await res.json());
  } catch (e) {
    document.getElementById("gc-line").textContent = `replay control failed: ${e.message}`;
  }
}

function setupReplay() {
  const slider = document.getElementById("replay-slider");
  slider.addEventListener("input", () => {
    sliderBusy = true;
    if (replay) document.getElementById("replay-time").textContent = `${seconds(Number(slider.value))} / ${seconds(replay.duration_s)}`;
  });
  slider.addEventListener("change", () => {
    sliderBusy = false;
    replayCommand({ position_s: Number(slider.value) });
  });
  document.getElementById("replay-play").addEventListener("click", () => {
    if (replay) replayCommand({ playing: !replay.playing });
  });
  document.getElementById("replay-speed").addEventListener("change", (e) => {
    replayCommand({ speed: Number(e.target.value) });
  });
}

function drawReplay(state) {
  const bar = document.getElementById("replay");
  replay = state.replay || null;
  if (!replay) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const slider = document.getElementById("replay-slider");
  slider.max = replay.duration_s.toFixed(1);
  if (!sliderBusy) slider.value = replay.position_s.toFixed(1);
  document.getElementById("replay-play").textContent = replay.playing ? "Pause" : "Play";
  const speed = document.getElementById("replay-speed");
  if (document.activeElement !== speed) speed.value = String(replay.speed);
  document.getElementById("replay-time").textContent = `${seconds(replay.position_s)} / ${seconds(replay.duration_s)}`;
  document.body.dataset.replayPosition = replay.position_s.toFixed(1);
  document.body.dataset.replayPlaying = String(replay.playing);
  drawReplayLog(replay, slider);
  // A link may name a moment (#t=93.5) or start playing (#play): the page moves the
  // slider and plays it as a person would.
  if (!hashApplied) {
    hashApplied = true;
    const at = location.hash.match(/[#&]t=([0-9.]+)/);
    if (at) {
      slider.value = at[1];
      slider.dispatchEvent(new Event("change"));
    }
    if (/[#&]play\b/.test(location.hash)) document.getElementById("replay-play").click();
  }
}

// A GameController log's replay: its actions are marks on the slider, and the log's
// game state and latest action at the position stand beside it.
function drawReplayLog(r, slider) {
  const box = document.getElementById("replay-log");
  const events = r.events || [];
  if (!events.length && !r.game_state) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const marks = document.getElementById("replay-marks");
  if (marks.childElementCount !== events.length) {
    marks.replaceChildren(...events.map((e) => el("option", { value: e.at_s.toFixed(1), label: e.text })));
    slider.setAttribute("list", "replay-marks");
  }
  const past = events.filter((e) => e.at_s <= r.position_s + 0.05);
  const last = past[past.length - 1];
  document.getElementById("replay-event").textContent = last ? `${seconds(last.at_s)} ${last.text} (${last.source})` : "";
  const g = r.game_state;
  let text = "log: no game state yet";
  if (g) {
    text = `${g.phase} · ${g.state}`;
    if (g.set_play !== "noSetPlay") text += ` · ${g.set_play}`;
    if (g.kicking_side) text += ` · kicking ${g.kicking_side}`;
    text += ` · ${g.teams[0].score}:${g.teams[1].score}`;
    if (g.stopped) text += " · stopped";
  }
  document.getElementById("replay-log-state").textContent = text;
}

function render(state) {
  drawReplay(state);
  drawField(state.field);
  drawHeader(state);
  drawRobots(state);
  drawTeams(state);
  drawTable(state);
  drawFlags(state);
  drawPorts(state);
  updates++;
  document.body.dataset.updates = String(updates);
  document.body.dataset.connection = "ok";
}

async function poll() {
  try {
    const res = await fetch("api/state", { cache: "no-store" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    render(await res.json());
  } catch (e) {
    document.body.dataset.connection = "lost";
    document.getElementById("gc-line").textContent = `monitor unreachable: ${e.message}`;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

setupReplay();
poll();

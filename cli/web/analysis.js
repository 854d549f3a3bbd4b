// The playground's analysis tab: the edited game measured by self-play on the server (troyka
// analyze's metrics, docs/analysis.md), beside another version of it, with charts drawn here as
// SVG: who wins with 95% intervals, the game lengths, the branching factor over the game.
"use strict";

const kPlayColours = ["#b58863", "#2f5fd0"];  // random self-play, the agent's
const kChartWidth = 320;

function escapeText(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function percent(value) {
  return `${(100 * value).toFixed(0)}%`;
}

function estimateText(estimate, share) {
  const show = (value) => (share ? percent(value) : value.toFixed(value >= 10 ? 0 : 2));
  return `${show(estimate.value)} [${show(estimate.low)}–${show(estimate.high)}]`;
}

// Whether two estimates differ beyond chance at the 5% level, as cli/analysis.h decides it.
function differ(a, b) {
  const error = (e) => (e.high - e.low) / (2 * 1.96);
  return Math.abs(a.value - b.value) > 1.96 * Math.hypot(error(a), error(b));
}

// Horizontal bars from 0 to 1 with the 95% interval as a whisker, one row per share.
function intervalChart(rows) {
  const rowHeight = 22, label = 120, scale = kChartWidth - label - 50;
  let svg = `<svg class="chart" width="${kChartWidth}" height="${rows.length * rowHeight + 6}">`;
  rows.forEach((row, index) => {
    const y = 4 + index * rowHeight;
    const x = (value) => label + value * scale;
    svg += `<text x="0" y="${y + 14}" font-size="12">${escapeText(row.label)}</text>` +
      `<rect x="${label}" y="${y + 3}" width="${scale}" height="14" fill="#f1ebe0"/>` +
      `<rect x="${label}" y="${y + 3}" width="${row.value * scale}" height="14" fill="${row.colour}"/>` +
      `<line x1="${x(row.low)}" x2="${x(row.high)}" y1="${y + 10}" y2="${y + 10}" stroke="#222" stroke-width="1.5"/>` +
      `<line x1="${x(row.low)}" x2="${x(row.low)}" y1="${y + 5}" y2="${y + 15}" stroke="#222"/>` +
      `<line x1="${x(row.high)}" x2="${x(row.high)}" y1="${y + 5}" y2="${y + 15}" stroke="#222"/>` +
      `<text x="${label + scale + 6}" y="${y + 14}" font-size="12">${percent(row.value)}</text>`;
  });
  return svg + "</svg>";
}

// Bars of games by length, `bin` plies a bar.
function histogramChart(counts, bin, colour) {
  const height = 110, bottom = height - 18, most = Math.max(1, ...counts);
  const barWidth = (kChartWidth - 20) / Math.max(1, counts.length);
  let svg = `<svg class="chart" width="${kChartWidth}" height="${height}">`;
  counts.forEach((count, index) => {
    const barHeight = (count / most) * (bottom - 8);
    svg += `<rect x="${10 + index * barWidth}" y="${bottom - barHeight}" width="${Math.max(1, barWidth - 1)}" ` +
      `height="${barHeight}" fill="${colour}"><title>${index * bin}–${(index + 1) * bin - 1} plies: ${count} games</title></rect>`;
  });
  svg += `<line x1="10" x2="${kChartWidth - 10}" y1="${bottom}" y2="${bottom}" stroke="#888"/>` +
    `<text x="10" y="${height - 4}" font-size="11">0</text>` +
    `<text x="${kChartWidth - 10}" y="${height - 4}" font-size="11" text-anchor="end">${counts.length * bin} plies</text>`;
  return svg + "</svg>";
}

// The mean number of legal moves at each ply, one line per kind of self-play.
function branchingChart(plays) {
  const height = 130, bottom = height - 18, left = 30;
  const longest = Math.max(1, ...plays.map((play) => play.branching_by_ply.length));
  const most = Math.max(1, ...plays.flatMap((play) => play.branching_by_ply));
  const x = (ply) => left + (ply / longest) * (kChartWidth - left - 10);
  const y = (moves) => bottom - (moves / most) * (bottom - 10);
  let svg = `<svg class="chart" width="${kChartWidth}" height="${height}">` +
    `<line x1="${left}" x2="${kChartWidth - 10}" y1="${bottom}" y2="${bottom}" stroke="#888"/>` +
    `<line x1="${left}" x2="${left}" y1="10" y2="${bottom}" stroke="#888"/>` +
    `<text x="${left - 4}" y="14" font-size="11" text-anchor="end">${most.toFixed(0)}</text>` +
    `<text x="${left - 4}" y="${bottom}" font-size="11" text-anchor="end">0</text>` +
    `<text x="${kChartWidth - 10}" y="${height - 4}" font-size="11" text-anchor="end">ply ${longest}</text>`;
  plays.forEach((play, index) => {
    const points = play.branching_by_ply.map((moves, ply) => `${x(ply).toFixed(1)},${y(moves).toFixed(1)}`);
    svg += `<polyline fill="none" stroke="${kPlayColours[index]}" stroke-width="2" points="${points.join(" ")}">` +
      `<title>${escapeText(play.players)}</title></polyline>`;
  });
  return svg + "</svg>";
}

function legend(plays) {
  return plays.map((play, index) =>
    `<span class="legend"><span style="background:${kPlayColours[index]}"></span>${escapeText(play.players)} self-play</span>`)
    .join(" ");
}

function skillText(skill) {
  if (!skill.steps.length) return "no skill trace";
  const steps = skill.steps.map((step) =>
    `${step.stronger} vs ${step.weaker} iterations: ${step.wins}–${step.losses}` +
    (step.draws ? `–${step.draws}` : "") + (step.clear ? " (clear)" : ""));
  return `${skill.levels} level${skill.levels === 1 ? "" : "s"} of skill (${escapeText(skill.agent)}): ${steps.join("; ")}`;
}

function versionHtml(version) {
  const analysis = version.analysis;
  const plays = analysis.plays;
  let html = `<div class="version"><h3>${escapeText(version.label)}: ${escapeText(analysis.game)}</h3>` +
    `<p class="note">${plays.map((play) => `${play.games} ${escapeText(play.players)} games`).join(", ")} ` +
    `in ${analysis.seconds.toFixed(1)} s${analysis.stopped ? " (stopped at the server's time limit)" : ""}</p>` +
    `<p>${legend(plays)}</p><h4>Who wins (95% intervals)</h4>`;
  plays.forEach((play, index) => {
    const m = play.metrics;
    // Two players are the first and the second; more are each seat by name.
    const seats = play.seats.length > 2
      ? play.seats.map((seat) => ({ label: seat.player, ...seat.wins, colour: kPlayColours[index] }))
      : [{ label: "first player", ...m.first_wins, colour: kPlayColours[index] },
        { label: "second player", ...m.second_wins, colour: kPlayColours[index] }];
    html += `<div class="chart-title">${escapeText(play.players)}</div>` + intervalChart([
      ...seats,
      { label: "draws", ...m.draws, colour: kPlayColours[index] },
      { label: "stopped at limit", ...m.limit_hits, colour: kPlayColours[index] },
    ]);
  });
  html += "<h4>Game length</h4>";
  plays.forEach((play, index) => {
    const length = play.length;
    html += `<div class="chart-title">${escapeText(play.players)}: ${play.metrics.length.value.toFixed(1)} plies on average, ` +
      `${length.shortest} to ${length.longest}</div>` +
      histogramChart(length.histogram.games, length.histogram.bin, kPlayColours[index]);
  });
  html += `<h4>Branching factor over the game</h4>${branchingChart(plays)}` +
    `<h4>Skill trace</h4><p class="skill">${skillText(analysis.skill)}</p></div>`;
  return html;
}

// Every metric, a column per version and kind of self-play; a difference beyond chance between
// the two versions is marked.
function metricsTable(metrics, versions) {
  const plays = versions[0].analysis.plays.length;
  let html = `<table class="metrics"><thead><tr><th>metric</th>`;
  for (let play = 0; play < plays; ++play)
    for (const version of versions)
      html += `<th>${escapeText(version.label)}<br><span class="note">${escapeText(version.analysis.plays[play].players)}</span></th>`;
  html += "</tr></thead><tbody>";
  for (const metric of metrics) {
    html += `<tr><td title="${escapeText(metric.meaning)}">${escapeText(metric.label)}</td>`;
    for (let play = 0; play < plays; ++play) {
      const estimates = versions.map((version) => version.analysis.plays[play] && version.analysis.plays[play].metrics[metric.key]);
      const marked = estimates.length === 2 && estimates.every(Boolean) && differ(estimates[0], estimates[1]);
      for (const estimate of estimates)
        html += `<td class="${marked ? "differs" : ""}">${estimate ? estimateText(estimate, metric.share) : "–"}</td>`;
    }
    html += "</tr>";
  }
  return html + "</tbody></table>" +
    (versions.length === 2 ? `<p class="note">Highlighted: the two versions differ by more than chance explains (5% level).</p>` : "");
}

function showAnalysis(result) {
  const box = $("analysis");
  box.innerHTML = `<div class="versions">${result.versions.map(versionHtml).join("")}</div>` +
    `<h4>All metrics (hover a name for its meaning)</h4>${metricsTable(result.metrics, result.versions)}`;
}

// The request for the version to compare the edited rules with, or nothing.
function comparedVersion() {
  const kind = $("compare-kind").value;
  if (kind === "original") {
    const original = $("game-list").games.find((game) => game.file === page.file);
    if (!original) throw new Error(`there is no original of ${page.file} among the server's games`);
    return { text: original.text, file: original.file, label: `original ${original.file}` };
  }
  if (kind === "variant") {
    const variant = $("compare-variant").value.trim();
    const params = $("compare-params").value.trim();
    return { ...rulesRequest(), variant, params: parseParams(params), label: [variant, params].filter(Boolean).join(" ") || "default" };
  }
  return null;
}

async function runAnalysis() {
  clearError();
  const button = $("analyze");
  button.disabled = true;
  try {
    const request = { ...rulesRequest(), label: "edited", games: Number($("analysis-games").value), agent: $("analysis-agent").value.trim() };
    const compared = comparedVersion();
    if (compared) request.compare = compared;
    const { job } = await api("POST", "/api/analyses", request);
    $("status").textContent = "Analysing: the server plays the games…";
    $("status").classList.add("thinking");
    for (;;) {
      const status = await api("GET", `/api/jobs/${job}?wait=5`);
      if (status.status === "done") {
        showAnalysis(status.result);
        $("status").textContent = "Analysis done.";
        break;
      }
      if (status.status === "failed") throw Object.assign(new Error(status.error.message), { hint: status.error.hint });
    }
  } catch (error) {
    showError(error);
    $("status").textContent = "The analysis did not run.";
  } finally {
    $("status").classList.remove("thinking");
    button.disabled = false;
  }
}

$("analyze").addEventListener("click", runAnalysis);

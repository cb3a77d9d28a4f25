// The popup: the active tab's site → the local `assistant serve` loads its privacy policy (POST /ingest, a job
// polled at /jobs/ID), shows its label (the server's label page, framed), answers questions (POST /ask) and warns
// when the policy changed since this site was last seen (GET /diff). It talks to the configured local server only,
// and every piece of server text is put in the page with textContent, never as HTML.
import { api, remember, remembered, serveCommand, serverAddress } from "./settings.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 600;
const MAX_QUOTED_CHANGES = 2;
const VERDICT_WORDS = { yes: "Yes", no: "No", conditional: "Only if", scoped: "Only for some", not_stated: "Not stated" };
const state = { server: "", site: "", policy: "", version: 0 };

class Unreachable extends Error {}

// One call to the server: its JSON, or an Error whose message is the server's one-line error (or why it failed).
async function call(path, options = {}) {
  let reply;
  try {
    reply = await fetch(state.server + path, { ...options, credentials: "omit", cache: "no-store" });
  } catch {
    throw new Unreachable(`The assistant does not answer at ${state.server}. Start it with: ${serveCommand()}`);
  }
  let body = null;
  try {
    body = await reply.json();
  } catch {
    body = null;
  }
  if (!reply.ok) {
    throw new Error(body && typeof body.error === "string" ? body.error : `The assistant answered ${reply.status}.`);
  }
  return body;
}

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function policyUrl(name, version, sentence) {
  const query = new URLSearchParams({ name, version: String(version) });
  return `${state.server}/policy?${query}` + (sentence ? `#s-${sentence}` : "");
}

// -- the site -------------------------------------------------------------------------------------------------

async function activeTab() {
  const id = Number(new URLSearchParams(location.search).get("tab"));  // the popup opened as a page for a tab
  if (id) return api.tabs.get(id);
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  return tab;
}

function siteOf(address) {
  try {
    const url = new URL(address);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : "";
  } catch {
    return "";
  }
}

// -- loading and showing the policy ---------------------------------------------------------------------------

function stageText(job) {
  const stage = job.stage ? ` (${job.stage})` : "";
  return job.status === "queued" ? "Waiting for the assistant…" : `Loading this site’s privacy policy…${stage}`;
}

async function loadPolicy() {
  $("load").disabled = true;
  $("progress").textContent = "";
  say("Looking for this site’s privacy policy…");
  const started = Date.now();
  try {
    const form = new FormData();
    form.set("url", state.site + "/");
    form.set("wait", "false");
    let job = await call("/ingest", { method: "POST", body: form });
    let shown = "";
    while (job.status === "queued" || job.status === "running") {
      const text = stageText(job);
      if (text !== shown) say((shown = text));
      const count = job.total ? `${job.done} of ${job.total} sentences, ` : "";
      $("progress").textContent = `${count}${Math.round((Date.now() - started) / 1000)} s`;
      await sleep(POLL_MS);
      job = await call(`/jobs/${encodeURIComponent(job.job)}`);
    }
    $("progress").textContent = "";
    if (job.status !== "done") throw new Error(job.error || "The assistant could not load the policy.");
    const result = job.result;
    await show(result.name, result.version, result.found ?? null);
    say(result.unchanged ? `Loaded ${result.name}: unchanged since the assistant last read it.`
                         : `Loaded ${result.name} (version ${result.version}, ${result.sentences} sentences).`);
  } catch (error) {
    $("progress").textContent = "";
    say(error.message, true);
  } finally {
    $("load").disabled = false;
  }
}

async function show(name, version, found) {
  const seen = await remembered(state.site);
  if (seen && seen.name === name && version > seen.version) {
    await warnChanged(name, seen.version, version);
  } else if (!seen || seen.name !== name) {
    $("changed").hidden = true;
  }
  await remember(state.site, { name, version, found, seenAt: Date.now() });
  state.policy = name;
  state.version = version;

  $("policy-name").textContent = name;
  $("policy-version").textContent = `version ${version}`;
  $("found").textContent = found
    ? `How it was found: ${found}.`.replace(/\.\.$/, ".")
    : "The site’s own address is its privacy policy.";
  const rows = await call("/policies");
  const row = rows.find((r) => r.name === name);
  const source = row && (row.source || row.requested_url);
  if (source && /^https?:\/\//i.test(source)) {
    $("source-link").href = source;
    $("source-link").textContent = source;
    $("source").hidden = false;
  } else {
    $("source").hidden = true;
  }
  const query = new URLSearchParams({ policy: name, version: String(version), format: "html", new_tab: "true" });
  $("label").title = `Privacy label of ${name}, version ${version}`;
  $("label").src = `${state.server}/label?${query}`;
  $("answer").replaceChildren();
  $("policy").hidden = false;
}

// What changed between the version last seen and the one stored now, in a few lines.
async function warnChanged(name, before, after) {
  $("changed-versions").textContent = `(version ${before} → ${after}).`;
  const list = $("changed-summary");
  list.replaceChildren();
  $("changed").hidden = false;
  let diff;
  try {
    diff = await call(`/diff?${new URLSearchParams({ policy: name, from: String(before), to: String(after) })}`);
  } catch (error) {
    list.append(element("li", `What changed could not be read: ${error.message}`));
    return;
  }
  for (const change of diff.facet_changes.slice(0, 3)) {
    const word = (verdict) => VERDICT_WORDS[verdict] ?? verdict;
    list.append(element("li", `${change.question} Now: ${word(change.after)} (before: ${word(change.before)}).`));
  }
  if (diff.facet_changes.length > 3) list.append(element("li", `${diff.facet_changes.length - 3} more answers changed.`));
  const counts = diff.counts;
  const parts = [["added", counts.added], ["removed", counts.removed], ["reworded", counts.reworded]]
    .filter(([, n]) => n).map(([kind, n]) => `${n} ${kind}`);
  const material = counts.material === 1 ? "1 of them is" : `${counts.material} of them are`;
  list.append(element("li", parts.length
    ? `Sentences: ${parts.join(", ")}; ${material} about what they do with your data.`
    : "No sentence changed."));
  // The first changes about practices, quoted (in the new version's order).
  const changes = diff.issues.flatMap((group) => group.changes).filter((change) => change.material)
    .sort((a, b) => (a.after_id ?? a.before_id ?? 0) - (b.after_id ?? b.before_id ?? 0));
  for (const change of changes.slice(0, MAX_QUOTED_CHANGES)) {
    const text = change.kind === "removed" ? change.before : change.after;
    const kind = { added: "Added", removed: "Removed", reworded: "Reworded" }[change.kind] ?? change.kind;
    list.append(element("li", `${kind}: “${shorten(text ?? "")}”`));
  }
}

function shorten(text, most = 200) {
  return text.length <= most ? text : text.slice(0, most - 1).trimEnd() + "…";
}

// -- questions ------------------------------------------------------------------------------------------------

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  const box = $("answer");
  if (!question) {
    box.replaceChildren(element("p", "Type a question first, such as “Do they sell my data?”", "error"));
    return;
  }
  box.replaceChildren(element("p", "Reading the policy…", "hint"));
  try {
    const answer = await call("/ask", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question, policy: state.policy, version: state.version, top: 1 }),
    });
    const parts = [element("p", answer.headline || answer.answer || "The policy does not say.", "headline")];
    const best = answer.evidence && answer.evidence[0];
    if (best) {
      if (!answer.answerable) parts.push(element("p", "The closest passage:", "hint"));
      parts.push(element("blockquote", `“${best.text}”`));
      const link = element("a", `Open the policy at sentence ${best.sentence_id}`);
      link.href = policyUrl(answer.policy, answer.version, best.sentence_id);
      link.target = "_blank";
      link.rel = "noopener";
      link.className = "cite";
      link.append(element("span", " (opens in a new tab)", "visually-hidden"));
      const cite = element("p");
      cite.append(link);
      parts.push(cite);
    }
    box.replaceChildren(...parts);
  } catch (error) {
    box.replaceChildren(element("p", error.message, "error"));
  }
}

// -- start ----------------------------------------------------------------------------------------------------

async function start() {
  state.server = await serverAddress();
  $("load").addEventListener("click", loadPolicy);
  $("ask").addEventListener("submit", ask);
  const tab = await activeTab().catch(() => null);
  state.site = siteOf(tab?.url ?? "");
  if (!state.site) {
    $("site").textContent = "not a web site";
    say("Open a web site’s page, then press the button here.");
    return;
  }
  $("site").textContent = new URL(state.site).host;
  $("load").disabled = false;
  const seen = await remembered(state.site);
  if (!seen) return;
  try {  // seen before: show it at once, warning when the assistant now holds a newer version
    const rows = await call("/policies");
    const row = rows.find((r) => r.name === seen.name);
    if (row) {
      await show(row.name, row.version, seen.found ?? null);
      say(`Showing ${row.name}, loaded before. Press the button to check the site for a newer version.`);
    }
  } catch (error) {
    say(error.message, true);
  }
}

start();

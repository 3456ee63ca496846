// reelay's dashboard: a plain ES module calling the /v1 API with the caller's key through
// @reelay/client (client.js, its browser bundle), like any program would.
// Everything from the API is written with textContent, never as HTML (the key lives next to it).
import { createClient, ReelayError } from "./client.js";

const KEY_STORAGE = "reelay.apiKey";
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
const POLL_ACTIVE_MS = 1500;
const POLL_IDLE_MS = 10000;
const RECONNECT_MS = 2000;

const $ = (selector) => document.querySelector(selector);
const state = {
  key: null,
  client: null,
  /** Each job's gallery tile, kept while its look is the same so its images are not fetched again. */
  tiles: new Map(),
  models: [],
  jobs: [],
  batches: [],
  selected: null,
  shownPreviewFor: null,
  pollTimer: null,
  stream: null,
};

function el(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === "text") node.textContent = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** The key was refused: the page asks for another. */
function unauthorized(error) {
  return error instanceof ReelayError && error.status === 401;
}

/** A GET's answer, or undefined when the API refused it (a refused key is thrown: it ends the session). */
async function read(path, params = {}) {
  try {
    return (await state.client.GET(path, { params })).data;
  } catch (error) {
    if (unauthorized(error)) throw error;
    return undefined;
  }
}

// --- the key -------------------------------------------------------------------------------------

/** A key in the URL fragment (#key=...) is taken once and removed: fragments never reach a server. */
function keyFromFragment() {
  const match = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return decodeURIComponent(match[1]);
}

function askForKey(message = "") {
  stopLive();
  state.key = null;
  $("#main").hidden = true;
  $("#forget-key").hidden = true;
  $("#key-panel").hidden = false;
  $("#key-error").textContent = message;
  $("#key-input").focus();
}

async function useKey(key) {
  state.key = key;
  state.client = createClient({ baseUrl: location.origin, apiKey: key });
  try {
    await state.client.GET("/v1/jobs", { params: { query: { limit: 1 } } });
  } catch (error) {
    if (unauthorized(error)) {
      localStorage.removeItem(KEY_STORAGE);
      return askForKey("That key was refused; check the one `reelay up` printed.");
    }
    throw error;
  }
  localStorage.setItem(KEY_STORAGE, key);
  $("#key-panel").hidden = true;
  $("#main").hidden = false;
  $("#forget-key").hidden = false;
  await start();
}

// --- the submit form -----------------------------------------------------------------------------

function option(value, label = value) {
  return el("option", { value, text: label });
}

function fillModels() {
  const select = $("#f-model");
  const families = new Map();
  for (const model of state.models) {
    const family = model.family ?? "upstream only";
    if (!families.has(family)) families.set(family, el("optgroup", { label: family }));
    families.get(family).append(option(model.id));
  }
  select.replaceChildren(...families.values());
}

function currentModel() {
  return state.models.find((model) => model.id === $("#f-model").value);
}

/** "allowed: 4, 6, 8", or "3 to 15" for a run of whole seconds. */
function describeDurations(values) {
  if (values.length === 0) return "";
  const first = values[0];
  const last = values[values.length - 1];
  const run = values.length > 3 && values.every((value, index) => value === first + index);
  return run ? `${first} to ${last}` : `allowed: ${values.join(", ")}`;
}

/** The fields follow the model: its durations, resolutions and ratios, its default duration. */
function fitFieldsToModel() {
  const model = currentModel();
  if (!model) return;
  const duration = $("#f-duration");
  const durations = model.durations ?? [];
  $("#f-durations").replaceChildren(...durations.map((value) => option(String(value))));
  // Left empty: the API applies the model's own default (gamma: 8 s), which the listing does not name.
  duration.value = "";
  $("#f-duration-hint").textContent = describeDurations(durations);
  $("#f-resolution").replaceChildren(
    option("", "model default"),
    ...(model.resolutions ?? []).map((value) => option(value)),
  );
  $("#f-ratio").replaceChildren(
    option("", "model default"),
    ...(model.aspect_ratios ?? []).map((value) => option(value)),
  );
  $("#f-audio").options[0].textContent =
    model.audio_default === null
      ? "model default"
      : `model default (${model.audio_default ? "on" : "off"})`;
  clearErrors();
}

function clearErrors() {
  for (const node of document.querySelectorAll("#submit-form .field-error")) node.textContent = "";
  for (const node of document.querySelectorAll("#submit-form .field.invalid"))
    node.classList.remove("invalid");
  $("#form-warnings").replaceChildren();
}

/** `duration_sec`, `model_specific_config.seed`, `frame_images[0].image_url` -> the form field's name. */
function fieldOf(path) {
  return String(path ?? "").split(/[.[]/)[0];
}

function showErrors(error) {
  const issues =
    Array.isArray(error?.errors) && error.errors.length > 0
      ? error.errors
      : [{ path: error?.path, message: error?.message ?? "The request was refused." }];
  const unplaced = [];
  for (const issue of issues) {
    const target = document.querySelector(
      `#submit-form .field-error[data-for="${CSS.escape(fieldOf(issue.path))}"]`,
    );
    if (!target) {
      unplaced.push(issue.message);
      continue;
    }
    target.textContent = target.textContent
      ? `${target.textContent} ${issue.message}`
      : issue.message;
    target.closest(".field").classList.add("invalid");
  }
  $("#form-error").textContent = unplaced.join(" ");
}

function requestBody() {
  const form = new FormData($("#submit-form"));
  const body = { model: form.get("model") };
  const prompt = String(form.get("prompt") ?? "").trim();
  if (prompt) body.prompt = prompt;
  const duration = String(form.get("duration_sec") ?? "").trim();
  // Sent as typed, even when odd: the API's validator is the judge, and its answer shows inline.
  if (duration) body.duration_sec = /^-?\d+$/.test(duration) ? Number(duration) : duration;
  for (const name of ["resolution", "aspect_ratio"]) {
    const value = form.get(name);
    if (value) body[name] = value;
  }
  const audio = form.get("generate_audio");
  if (audio) body.generate_audio = audio === "true";
  return body;
}

async function submit(event) {
  event.preventDefault();
  clearErrors();
  const button = $("#submit-button");
  button.disabled = true;
  try {
    const created = await state.client.generate(requestBody());
    for (const warning of created.warnings ?? [])
      $("#form-warnings").append(el("li", { text: warning.message }));
    await refreshJobs();
    await select(created.task_id);
  } catch (error) {
    if (unauthorized(error)) return askForKey(error.message);
    if (error instanceof ReelayError && error.status !== undefined) return showErrors(error);
    $("#form-error").textContent = `Could not reach reelay: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

// --- the job list --------------------------------------------------------------------------------

function statusBadge(status) {
  return el("span", { class: "status", text: status, dataset: { status } });
}

/** The tile's picture: a video's poster frame, an image job's image, else its status in words. */
function pictureOf(job) {
  if (job.previews)
    return el("img", {
      class: "thumb",
      src: job.previews.thumbnail.url,
      alt: `${job.id} thumbnail`,
    });
  const image = job.status === "succeeded" && job.kind === "image" ? job.outputs[0]?.url : null;
  if (image) return el("img", { class: "thumb", src: image, alt: `${job.id} image` });
  return el("span", { class: "placeholder", text: job.kind === "image" ? "image" : "video" });
}

/**
 * Hovering a video's tile scrubs through its spritesheet: the pointer's x picks one of its frames
 * (left to right, then top to bottom), shown by moving the sheet behind the tile's window.
 */
function scrubbing(frame, sheet) {
  const scrub = el("div", { class: "scrub" });
  // A CSS string: the presigned URL as it is (its query is already encoded), quotes escaped.
  scrub.style.backgroundImage = `url(${JSON.stringify(sheet.url)})`;
  scrub.style.backgroundSize = `${sheet.columns * 100}% ${sheet.rows * 100}%`;
  frame.style.aspectRatio = `${sheet.frameWidth} / ${sheet.frameHeight}`;
  frame.addEventListener("pointermove", (event) => {
    const box = frame.getBoundingClientRect();
    const at = Math.min(Math.max((event.clientX - box.left) / box.width, 0), 0.9999);
    const index = Math.floor(at * sheet.frames);
    const column = index % sheet.columns;
    const row = Math.floor(index / sheet.columns);
    const x = sheet.columns > 1 ? (column / (sheet.columns - 1)) * 100 : 0;
    const y = sheet.rows > 1 ? (row / (sheet.rows - 1)) * 100 : 0;
    scrub.style.backgroundPosition = `${x}% ${y}%`;
    scrub.dataset.frame = String(index);
  });
  frame.addEventListener("pointerleave", () => delete scrub.dataset.frame);
  return scrub;
}

function tileOf(job) {
  const frame = el("div", { class: "frame" }, [pictureOf(job)]);
  if (job.previews) frame.append(scrubbing(frame, job.previews.spritesheet));
  return el("li", { class: "tile", dataset: { id: job.id, status: job.status } }, [
    frame,
    el("div", { class: "caption" }, [
      statusBadge(job.status),
      el("code", { text: job.id }),
      el("span", { class: "model", text: job.model }),
    ]),
  ]);
}

/** A grid of tiles, newest first; a tile is made again only when its job's look changes. */
function renderJobs() {
  const tiles = new Map();
  const nodes = state.jobs.map((job) => {
    const look = `${job.status}:${job.previews ? "previews" : ""}:${job.outputs.length}`;
    const kept = state.tiles.get(job.id);
    const tile = kept?.look === look ? kept.node : tileOf(job);
    tile.setAttribute("aria-selected", String(job.id === state.selected));
    tiles.set(job.id, { look, node: tile });
    return tile;
  });
  state.tiles = tiles;
  $("#jobs").replaceChildren(...nodes);
}

async function refreshJobs() {
  const page = await read("/v1/jobs", { query: { limit: 50 } });
  if (page === undefined) return;
  state.jobs = page.data;
  renderJobs();
  await refreshBatches();
  await refreshSpend();
  await refreshPool();
  if (state.selected) await refreshDetail();
}

// --- spend ---------------------------------------------------------------------------------------

function amountText(value, unit, currency) {
  return unit === "units" ? `${value} units` : `${value}${currency ? ` ${currency}` : ""}`;
}

/** "12 jobs, 0.9 USD; 40 video seconds, 0 images; 1 failed (content_policy 1), 1 charged". */
function spendText(report) {
  const { totals, currency } = report;
  const cost =
    totals.cost === null ? "no price table" : amountText(totals.cost, "currency", currency);
  const classes = Object.entries(totals.failures).map(([name, n]) => `${name} ${n}`);
  const failed =
    totals.failed === 0
      ? "no failures"
      : `${totals.failed} failed (${classes.join(", ")}), ${totals.charged_failures} charged`;
  return `${totals.jobs} jobs, ${cost}; ${totals.units.video_seconds} video seconds, ${totals.units.images} images; ${failed}`;
}

function budgetItem(budget, currency) {
  const whose = budget.budget === "deployment" ? "deployment" : `key ${budget.id}`;
  const unit = budget.unit;
  return el("li", { class: "budget", dataset: { budget: budget.budget } }, [
    el("progress", {
      max: String(budget.amount),
      value: String(Math.min(budget.used, budget.amount)),
    }),
    el("span", {
      class: "budget-text",
      text: `${whose}: ${amountText(budget.used, unit, currency)} of ${amountText(budget.amount, unit, currency)} per ${budget.period}, ${amountText(budget.remaining, unit, currency)} left`,
    }),
  ]);
}

async function refreshSpend() {
  const body = await read("/v1/usage");
  if (body === undefined) return;
  $("#spend-summary").textContent = spendText(body);
  $("#budgets").replaceChildren(...body.budgets.map((budget) => budgetItem(budget, body.currency)));
  $("#spend-panel").hidden = body.totals.jobs === 0 && body.budgets.length === 0;
}

// --- the pool ------------------------------------------------------------------------------------

function accountRow(account) {
  const last = account.last_error;
  return el("tr", { dataset: { account: account.name } }, [
    el("td", { text: account.name }),
    el("td", {}, [el("span", { class: `circuit circuit-${account.state}`, text: account.state })]),
    el("td", { text: `${account.in_flight}/${account.limit}` }),
    el("td", { text: String(account.recent.rate_limited) }),
    el("td", { text: String(account.recent.errors) }),
    el("td", {
      class: "last-error",
      text: last === null ? "-" : `${clock(last.at)} ${last.code}: ${last.message}`,
    }),
  ]);
}

/**
 * GET /v1/upstreams answers the admin key only (403 for a stored key): the panel shows for the
 * admin key over a pool, and a one-account deployment's page stays as it was.
 */
async function refreshPool() {
  const body = await read("/v1/upstreams");
  const pool = body !== undefined && body.data.length > 1;
  $("#pool-panel").hidden = !pool;
  if (pool) $("#pool tbody").replaceChildren(...body.data.map(accountRow));
}

// --- batches -------------------------------------------------------------------------------------

const BATCH_STATUSES = [
  "succeeded",
  "failed",
  "cancelled",
  "rejected",
  "queued",
  "running",
  "downloading",
];
const ENDED = ["succeeded", "failed", "cancelled", "rejected"];

function endedOf(batch) {
  return ENDED.reduce((sum, status) => sum + (batch.counts[status] ?? 0), 0);
}

/** "3/10 ended: 2 succeeded, 1 failed, 7 queued" from the batch's exact counts. */
function progressText(batch) {
  const parts = BATCH_STATUSES.filter((status) => batch.counts[status] > 0).map(
    (status) => `${batch.counts[status]} ${status}`,
  );
  return `${endedOf(batch)}/${batch.total} ended: ${parts.join(", ")}`;
}

function etaText(batch) {
  if (batch.status === "completed") return "done";
  return batch.eta_seconds === null || batch.eta_seconds === undefined
    ? "—"
    : `${Math.round(batch.eta_seconds)} s`;
}

function renderBatches() {
  const rows = state.batches.map((batch) =>
    el("tr", { dataset: { id: batch.id, status: batch.status } }, [
      el("td", {}, [el("code", { text: batch.id })]),
      el("td", {}, [
        el("progress", { max: String(batch.total), value: String(endedOf(batch)) }),
        el("span", { class: "batch-progress", text: progressText(batch) }),
      ]),
      el("td", { class: "batch-eta", text: etaText(batch) }),
      el("td", {}, [
        el("button", {
          type: "button",
          class: "batch-results",
          text: "results.jsonl",
          dataset: { id: batch.id },
        }),
      ]),
    ]),
  );
  $("#batches tbody").replaceChildren(...rows);
  $("#batches-panel").hidden = rows.length === 0;
}

async function refreshBatches() {
  const body = await read("/v1/batches");
  if (body === undefined) return;
  state.batches = body.data;
  renderBatches();
}

/** The results need the key, so they are read here and handed to the browser as a file. */
async function downloadResults(id) {
  const lines = [];
  for await (const result of state.client.batches.results(id))
    lines.push(`${JSON.stringify(result)}\n`);
  const url = URL.createObjectURL(new Blob(lines, { type: "application/x-ndjson" }));
  const link = el("a", { href: url, download: `${id}-results.jsonl` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// --- one job -------------------------------------------------------------------------------------

function previewOf(output) {
  if (!output.url)
    return el("p", {
      class: "hint",
      text: `${output.key} (in a bucket this API does not sign for)`,
    });
  if (output.contentType.startsWith("video/")) {
    return el("video", {
      src: output.url,
      controls: "",
      muted: "",
      preload: "auto",
      playsinline: "",
    });
  }
  if (output.contentType.startsWith("image/"))
    return el("img", { src: output.url, alt: output.key });
  return el("a", { href: output.url, text: output.key });
}

const CLOCK = {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  fractionalSecondDigits: 3,
  hour12: false,
};

/** Local wall-clock time to the millisecond: steps of a fast job are milliseconds apart. */
function clock(iso) {
  return new Date(iso).toLocaleTimeString(undefined, CLOCK);
}

function renderDetail(job) {
  $("#detail").hidden = false;
  $("#detail-id").textContent = job.id;
  const badge = $("#detail-status");
  badge.textContent = job.status;
  badge.dataset.status = job.status;
  const request = job.request ?? {};
  const facts = [
    job.model,
    job.mode,
    request.duration_sec && `${request.duration_sec} s`,
    request.resolution,
    request.aspect_ratio,
    request.prompt && `"${request.prompt}"`,
  ];
  $("#detail-summary").textContent = facts.filter(Boolean).join(" · ");
  $("#detail-error").textContent = job.error ? `${job.error.code}: ${job.error.message}` : "";
  $("#timeline").replaceChildren(
    ...job.history.map((entry) =>
      el("li", { dataset: { status: entry.status } }, [
        el("time", { datetime: entry.at, text: clock(entry.at) }),
        statusBadge(entry.status),
        ...(entry.note ? [" ", el("span", { class: "hint", text: entry.note })] : []),
      ]),
    ),
  );
  // Rebuilt only when the outputs change, so a playing video is not reset by a refresh.
  const previewKey = `${job.id}:${job.status}:${job.outputs.length}`;
  if (state.shownPreviewFor !== previewKey) {
    state.shownPreviewFor = previewKey;
    $("#previews").replaceChildren(
      ...(job.status === "succeeded" ? job.outputs.map(previewOf) : []),
    );
  }
}

async function refreshDetail() {
  const body = await read("/v1/jobs/{id}", { path: { id: state.selected } });
  if (body !== undefined && body.id === state.selected) {
    renderDetail(body);
    await refreshDeliveries(body);
  }
}

/** "delivered config:ab12… http://host/hook: 2 attempts, last HTTP 200" for one delivery. */
function deliveryText(delivery) {
  const last = delivery.attempts.at(-1);
  const outcome =
    last === undefined ? "no attempt yet" : (last.error ?? `last HTTP ${last.status}`);
  const attempts = `${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? "" : "s"}`;
  return `${delivery.status} ${delivery.subscriber} ${delivery.url}: ${attempts}, ${outcome}`;
}

/** The webhook deliveries of the job's terminal event (the admin key's log; others see none). */
async function refreshDeliveries(job) {
  const panel = $("#deliveries-panel");
  if (!TERMINAL.has(job.status)) {
    panel.hidden = true;
    return;
  }
  const event = `${job.id}.${job.status}`;
  const body = await read("/v1/webhooks/deliveries", { query: { event } });
  const deliveries = body?.data ?? [];
  $("#deliveries").replaceChildren(
    ...deliveries.map((d) =>
      el("li", { class: "delivery", dataset: { status: d.status }, text: deliveryText(d) }),
    ),
  );
  panel.hidden = deliveries.length === 0;
}

async function select(id) {
  state.selected = id;
  renderJobs();
  await refreshDetail();
}

// --- live updates --------------------------------------------------------------------------------

/**
 * The event stream (GET /v1/events) carries terminal events only, so it makes a finished job show
 * at once; steps in between (running, downloading) come from polling while a job is in progress.
 * fetch, not EventSource: EventSource cannot send the Authorization header.
 */
async function streamEvents() {
  const controller = new AbortController();
  state.stream = controller;
  const live = $("#live");
  const on = () => {
    live.dataset.state = "on";
    live.textContent = "live";
  };
  while (state.stream === controller) {
    try {
      for await (const _event of state.client.events({ signal: controller.signal, onOpen: on }))
        void refreshJobs().catch(() => undefined);
    } catch (error) {
      if (unauthorized(error)) return askForKey(error.message);
      if (controller.signal.aborted) return;
    }
    live.dataset.state = "off";
    live.textContent = "live updates off (reconnecting)";
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

function schedulePoll() {
  clearTimeout(state.pollTimer);
  const active =
    state.jobs.some((job) => !TERMINAL.has(job.status)) ||
    state.batches.some((batch) => batch.status !== "completed");
  state.pollTimer = setTimeout(
    async () => {
      try {
        await refreshJobs();
      } catch (error) {
        if (unauthorized(error)) return askForKey(error.message);
      }
      if (state.key) schedulePoll();
    },
    active ? POLL_ACTIVE_MS : POLL_IDLE_MS,
  );
}

function stopLive() {
  clearTimeout(state.pollTimer);
  state.stream?.abort();
  state.stream = null;
}

// --- start ---------------------------------------------------------------------------------------

/** GET /v1/models: exact codes only (a prefix entry such as lambda- is no model one can pick). */
async function loadModels() {
  const { data } = await state.client.GET("/v1/models", {
    params: { query: { modality: "video" } },
  });
  state.models = data.data.filter((model) => model.match === "exact");
  fillModels();
  fitFieldsToModel();
}

async function start() {
  await loadModels();
  await refreshJobs();
  schedulePoll();
  void streamEvents();
}

function wire() {
  $("#key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const key = $("#key-input").value.trim();
    if (key) void useKey(key);
  });
  $("#forget-key").addEventListener("click", () => {
    localStorage.removeItem(KEY_STORAGE);
    askForKey();
  });
  $("#f-model").addEventListener("change", fitFieldsToModel);
  $("#submit-form").addEventListener("submit", submit);
  $("#batches tbody").addEventListener("click", (event) => {
    const button = event.target.closest("button.batch-results");
    if (button) void downloadResults(button.dataset.id);
  });
  // A tile's click shows its job: the video plays in the detail below.
  $("#jobs").addEventListener("click", (event) => {
    const tile = event.target.closest("li[data-id]");
    if (tile) void select(tile.dataset.id);
  });
}

wire();
const initial = keyFromFragment() ?? localStorage.getItem(KEY_STORAGE);
if (initial) void useKey(initial);
else askForKey();

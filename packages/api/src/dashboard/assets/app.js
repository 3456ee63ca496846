// reelay's dashboard: a plain ES module calling the /v1 API with the caller's key, like any client.
// Everything from the API is written with textContent, never as HTML (the key lives next to it).

const KEY_STORAGE = "reelay.apiKey";
const TERMINAL = new Set(["succeeded", "failed", "cancelled"]);
const POLL_ACTIVE_MS = 1500;
const POLL_IDLE_MS = 10000;
const RECONNECT_MS = 2000;

const $ = (selector) => document.querySelector(selector);
const state = {
  key: null,
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

class Unauthorized extends Error {}

async function api(path, init = {}) {
  const headers = {
    authorization: `Bearer ${state.key}`,
    ...(init.body ? { "content-type": "application/json" } : {}),
  };
  const response = await fetch(path, { ...init, headers: { ...headers, ...init.headers } });
  if (response.status === 401) throw new Unauthorized("The API key was refused.");
  const body = await response.json().catch(() => ({}));
  return { status: response.status, body };
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
  try {
    await api("/v1/jobs?limit=1");
  } catch (error) {
    if (error instanceof Unauthorized) {
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
    const { status, body } = await api("/v1/video/generations", {
      method: "POST",
      body: JSON.stringify(requestBody()),
    });
    if (status >= 400) return showErrors(body.error);
    for (const warning of body.warnings ?? [])
      $("#form-warnings").append(el("li", { text: warning.message }));
    await refreshJobs();
    await select(body.task_id);
  } catch (error) {
    if (error instanceof Unauthorized) return askForKey(error.message);
    $("#form-error").textContent = `Could not reach reelay: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

// --- the job list --------------------------------------------------------------------------------

function statusBadge(status) {
  return el("span", { class: "status", text: status, dataset: { status } });
}

function renderJobs() {
  const rows = state.jobs.map((job) =>
    el(
      "tr",
      {
        dataset: { id: job.id, status: job.status },
        "aria-selected": String(job.id === state.selected),
      },
      [
        el("td", {}, [el("code", { text: job.id })]),
        el("td", { text: job.model }),
        el("td", {}, [statusBadge(job.status)]),
        el("td", {}, [
          el("time", {
            datetime: job.timings.createdAt,
            text: new Date(job.timings.createdAt).toLocaleString(),
          }),
        ]),
      ],
    ),
  );
  $("#jobs tbody").replaceChildren(...rows);
}

async function refreshJobs() {
  const { status, body } = await api("/v1/jobs?limit=50");
  if (status !== 200) return;
  state.jobs = body.data;
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
  const { status, body } = await api("/v1/usage");
  if (status !== 200) return;
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
  const { status, body } = await api("/v1/upstreams");
  const pool = status === 200 && body.data.length > 1;
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
  const { status, body } = await api("/v1/batches");
  if (status !== 200) return;
  state.batches = body.data;
  renderBatches();
}

/** The results need the key, so they are fetched here and handed to the browser as a file. */
async function downloadResults(id) {
  const response = await fetch(`/v1/batches/${encodeURIComponent(id)}/results`, {
    headers: { authorization: `Bearer ${state.key}` },
  });
  if (response.status === 401) throw new Unauthorized("The API key was refused.");
  const url = URL.createObjectURL(await response.blob());
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
  const { status, body } = await api(`/v1/jobs/${encodeURIComponent(state.selected)}`);
  if (status === 200 && body.id === state.selected) {
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
  const { status, body } = await api(`/v1/webhooks/deliveries?event=${encodeURIComponent(event)}`);
  const deliveries = status === 200 ? body.data : [];
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
  while (state.stream === controller) {
    try {
      const response = await fetch("/v1/events", {
        headers: { authorization: `Bearer ${state.key}` },
        signal: controller.signal,
      });
      if (response.status === 401) throw new Unauthorized("The API key was refused.");
      if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
      live.dataset.state = "on";
      live.textContent = "live";
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const blocks = buffer.split("\n\n");
        buffer = blocks.pop() ?? "";
        if (blocks.some((block) => block.split("\n").some((line) => line.startsWith("data:"))))
          void refreshJobs().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof Unauthorized) return askForKey(error.message);
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
        if (error instanceof Unauthorized) return askForKey(error.message);
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
  const { status, body } = await api("/v1/models?modality=video");
  if (status !== 200) throw new Error(`models answered ${status}`);
  state.models = body.data.filter((model) => model.match === "exact");
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
  $("#jobs tbody").addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-id]");
    if (row) void select(row.dataset.id);
  });
}

wire();
const initial = keyFromFragment() ?? localStorage.getItem(KEY_STORAGE);
if (initial) void useKey(initial);
else askForKey();

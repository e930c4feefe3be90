// xlwings' own JavaScript (one xlwings-server release's static/js) on the Excel mock, serving requests.
//
//   node runner.mjs JS_DIR XLWINGS_VERSION
//
// Loads JS_DIR/custom-scripts/index.js -- the module xlwings' add-in runs, with everything it
// imports -- after the smallest shims a browser task pane would give it (`document` with the
// add-in's config element, `window.location`, `navigator`, `Office`), and `Excel` from excel-mock.mjs.
// Then one JSON line per request on stdin, one per reply on stdout (the protocol of
// tests/pyodide/harness.py: first {"event": "ready", ...}, then {"stdout", "network", "reply"}):
//   {"op": "handlers"}                       -> {"handlers": [the action funcs this JavaScript handles]}
//   {"op": "load", "book": STATE}            -> {}            the workbook the next requests act on
//   {"op": "payload", "include", "exclude"}  -> {"payload"}   xlwings.getBookData, as a script call sends it
//   {"op": "apply", "actions": [...]}        -> {"applied": [{index, func, ok}], "failed", "alerts"}
//                                               xlwings.runActions, as the add-in applies a script's result
//   {"op": "state"}                          -> {"book": STATE}
// Offline: fetch and XMLHttpRequest are refused and reported.

import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

import { BookModel, MockGap, excelNamespace } from "./excel-mock.mjs";

const protocol = (object) => process.stdout.write(JSON.stringify(object) + "\n");
let captured = [];
for (const name of ["log", "info", "warn", "debug", "error"]) {
  console[name] = (...args) => captured.push(args.map(String).join(" "));
}
const network = [];
globalThis.fetch = async (resource) => {
  network.push(String(resource && resource.url ? resource.url : resource));
  throw new Error("offline test harness: no network");
};
process.on("unhandledRejection", (error) => captured.push(`unhandled rejection: ${error && error.stack}`));

const [jsDir, xlwingsVersion] = process.argv.slice(2);
let book = null;
let alerts = [];

// ------------------------------------------------------------------ the task pane's shims

const config = {
  // xlwings Lite: the official add-in, Python in the browser (wasm.js then waits for startPyodide,
  // which these tests never call: the script runs in the harness's Python instead)
  onWasm: true, isOfficialLiteAddin: true, xlwingsVersion, appPath: "", authProviders: [], requestTimeout: 300,
  environment: "prod",
};
const element = () => ({ classList: { add() {}, remove() {} }, setAttribute() {}, removeAttribute() {},
  hasAttribute: () => false, appendChild() {}, addEventListener() {}, querySelector: () => null, textContent: "" });
globalThis.document = {
  getElementById: (id) => (id === "config" ? { textContent: JSON.stringify(config) } : null),
  addEventListener() {},
  querySelector: () => null,
  querySelectorAll: () => [],
  createElement: element,
  createTextNode: () => ({}),
  head: element(),
};
globalThis.window = { location: { origin: "https://xlwings-lite.test" }, atob: globalThis.atob };
Object.defineProperty(globalThis, "navigator", { value: { userAgent: "Mozilla/5.0 (xlbridge test harness)" },
  configurable: true });

// What Excel on the web supports (2026): the ExcelApi sets up to 1.19, the dialog API; not the
// desktop-only sets.
const SUPPORTED = { excelapi: [1, 19], dialogapi: [1, 2], sharedruntime: [1, 1], ribbonapi: [1, 1] };
function isSetSupported(name, version = "1.1") {
  const top = SUPPORTED[String(name).toLowerCase()];
  const [major, minor = 0] = String(version).split(".").map(Number);
  return Boolean(top) && (major < top[0] || (major === top[0] && minor <= top[1]));
}

globalThis.Office = {
  onReady: async (callback) => {
    const info = { host: "Excel", platform: "OfficeOnline" };
    if (callback) await callback(info);
    return info;
  },
  context: {
    platform: "OfficeOnline",
    requirements: { isSetSupported },
    ui: {
      // xlAlert (alerts/parent.js) opens its dialog with the prompt in the URL: that is the alert
      displayDialogAsync(url, options, callback) {
        const query = new URL(url).searchParams;
        alerts.push({ prompt: query.get("prompt"), title: query.get("title"), buttons: query.get("buttons"),
          mode: query.get("mode") });
        callback({ status: "succeeded", value: { addEventHandler() {}, close() {} } });
      },
    },
  },
  AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
  EventType: { DialogMessageReceived: "dialogMessageReceived", DialogEventReceived: "dialogEventReceived" },
};
globalThis.Excel = excelNamespace(() => {
  if (book === null) throw new Error("no workbook loaded (request 'load' first)");
  return book;
});

// ------------------------------------------------------------------ the requests

function describe(error) {
  if (!error || typeof error !== "object") return { message: String(error) };
  const cause = error.cause && typeof error.cause === "object" ? error.cause : null;
  return {
    message: String(error.message ?? error),
    type: error.name,
    code: error.code ?? cause?.code ?? null,
    statement: error.statement ?? cause?.statement ?? null,
    mockGap: error instanceof MockGap || cause instanceof MockGap,
    stack: String(error.stack || "").split("\n").slice(0, 8).join("\n"),
  };
}

/** runActions with every handler instrumented: which action ran, which failed, and why. */
async function apply(actions) {
  const callbacks = globalThis.callbacks;
  const originals = { ...callbacks };
  const applied = actions.map((action, index) => ({ index, func: action.func, ok: false }));
  let current = -1;
  let inCallback = false;
  for (const [name, original] of Object.entries(originals)) {
    callbacks[name] = async (context, action) => {
      current += 1;
      inCallback = true;
      await original(context, action);
      inCallback = false;
      applied[current].ok = true;
    };
  }
  alerts = [];
  let failed = null;
  try {
    await globalThis.xlwings.runActions({ actions }, null);
  } catch (error) {
    let index = Number.isInteger(error && error.actionIndex) ? error.actionIndex : current;
    if (!inCallback && index + 1 < actions.length && !(actions[index + 1].func in originals)) index += 1; // no handler
    failed = { index, func: actions[index]?.func ?? null, ...describe(error) };
    if (applied[index]) applied[index].ok = false;
  } finally {
    Object.assign(callbacks, originals);
  }
  await new Promise((resolve) => setImmediate(resolve)); // xlAlert awaits Office.onReady before it opens
  return { applied, failed, alerts };
}

async function handle(request) {
  switch (request.op) {
    case "handlers":
      return { handlers: Object.keys(globalThis.callbacks).sort() };
    case "load":
      book = new BookModel(request.book);
      return {};
    case "payload": {
      const payload = await globalThis.Excel.run((context) =>
        globalThis.xlwings.getBookData({ include: request.include || "", exclude: request.exclude || "" }, context));
      return { payload };
    }
    case "apply":
      return apply(request.actions);
    case "state":
      return { book: book.dump() };
    default:
      throw new Error(`unknown request ${JSON.stringify(request.op)}`);
  }
}

async function main() {
  const started = performance.now();
  await import(pathToFileURL(path.join(jsDir, "custom-scripts", "index.js")).href);
  if (!globalThis.xlwings || !globalThis.callbacks) throw new Error(`${jsDir}: index.js set no globalThis.xlwings`);
  protocol({ event: "ready", load_ms: performance.now() - started, output: captured.splice(0).join("\n") });
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    let reply;
    try {
      reply = { id: request.id, ...(await handle(request)) };
    } catch (error) {
      reply = { id: request.id, error: describe(error) };
    }
    protocol({ stdout: captured.splice(0).join("\n"), network: network.splice(0), reply });
  }
}

main().catch((error) => {
  protocol({ event: "fatal", error: String(error && error.stack ? error.stack : error) });
  process.exitCode = 1;
});

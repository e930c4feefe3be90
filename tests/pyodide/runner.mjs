// The Node side of the test harness: one Pyodide, loaded once, serving many requests.
//
//   node runner.mjs CONFIG.json
//
// CONFIG: {indexURL, wheels: [path], pyodidePackages: [name], driver: path,
//          mainDir, files: {name: text}, env: {...}}
// stdout carries the protocol only, one JSON object a line:
//   first  {"event": "ready", load_ms, install_ms, startup_ms, pyodide, python, xlwings, main_import_ms, ...}
//       or {"event": "fatal", "error": text}   (then the process exits)
//   then, for every request line on stdin, {"stdout": text, "network": [url], "reply": {...driver reply...}}
// The Python work is done by driver.py (tests/pyodide/driver.py), imported inside Pyodide.
// Offline: fetching any http(s) URL is refused and reported (the npm package is the core only).

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";

const protocol = (text) => process.stdout.write(text + "\n");
// Anything else printed (Pyodide's own messages, console.log of loaded code) goes to stderr.
for (const name of ["log", "info", "warn", "debug"]) {
  console[name] = (...args) => process.stderr.write(args.map(String).join(" ") + "\n");
}

const network = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (resource, init) => {
  const url = String(resource && resource.url ? resource.url : resource);
  if (/^(https?|wss?|ftp):/i.test(url)) {
    network.push(url);
    throw new Error(`offline test harness: refused to fetch ${url}`);
  }
  return realFetch(resource, init);
};

function short(error) {
  // Pyodide's bundle is minified: keep error texts readable (no 100 kB source lines).
  const text = error && error.stack ? String(error.stack) : String(error);
  return text.split("\n").map((line) => (line.length > 400 ? line.slice(0, 400) + " ..." : line)).join("\n").slice(0, 8000);
}

function bytes(file) {
  const data = fs.readFileSync(file);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

async function main() {
  const config = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  let captured = [];
  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(path.join(config.indexURL, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: config.indexURL.endsWith("/") ? config.indexURL : config.indexURL + "/",
    env: config.env,
    stdout: (line) => captured.push(line),
    stderr: (line) => captured.push(line),
  });
  const loadMs = performance.now() - t0;

  const t1 = performance.now();
  if (config.pyodidePackages.length) {
    await pyodide.loadPackage(config.pyodidePackages, { messageCallback: () => {}, errorCallback: (m) => captured.push(m) });
  }
  for (const wheel of config.wheels) {
    pyodide.unpackArchive(bytes(wheel), "wheel");
  }
  const installMs = performance.now() - t1;

  pyodide.FS.mkdirTree("/harness");
  pyodide.FS.writeFile("/harness/xlbridge_harness_driver.py", fs.readFileSync(config.driver, "utf8"));
  pyodide.FS.mkdirTree(config.mainDir);
  for (const [name, text] of Object.entries(config.files)) {
    pyodide.FS.writeFile(`${config.mainDir}/${name}`, text);
  }
  const sysPath = pyodide.pyimport("sys").path;
  sysPath.insert(0, "/harness");
  const driver = pyodide.pyimport("xlbridge_harness_driver");

  const t2 = performance.now();
  const started = JSON.parse(driver.startup(JSON.stringify({ main_dir: config.mainDir, module: "main" })));
  const startupMs = performance.now() - t2;
  protocol(JSON.stringify({
    event: "ready", runtime: "pyodide", pyodide: pyodide.version, load_ms: loadMs, install_ms: installMs,
    startup_ms: startupMs, output: captured.join("\n"), network: network.splice(0), ...started,
  }));

  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    captured = [];
    let reply;
    try {
      reply = await driver.handle(line); // a Python coroutine: awaited in Pyodide's event loop
    } catch (error) {
      reply = JSON.stringify({ error: { type: "JavaScriptError", message: String(error), traceback: short(error) } });
    }
    // the reply is the driver's JSON text, passed on as it is (it may hold NaN, which JSON.parse refuses)
    protocol(`{"stdout": ${JSON.stringify(captured.join("\n"))}, "network": ${JSON.stringify(network.splice(0))}, "reply": ${reply}}`);
  }
}

main().catch((error) => {
  protocol(JSON.stringify({ event: "fatal", error: short(error) }));
  process.exitCode = 1;
});

// A mock of Excel's JavaScript object model (Office.js, the `Excel` namespace), enough to run
// xlwings' own JavaScript -- the payload it builds (getBookData) and the actions it applies
// (runActions) -- on a workbook held in memory.  See tests/xlwingsjs/README.md.
//
// What is modelled, as Office.js documents it:
//  - proxies and batches: `load()` queues a read, a property set or a method call queues a write,
//    `context.sync()` runs the queue in order.  A failing operation stops the batch and rejects the
//    sync; the operations before it stay applied (no rollback).  Reading a property that was not
//    loaded (and synced) throws PropertyNotLoaded; `isNullObject` of an `...OrNullObject` is known
//    after the sync that resolved it.
//  - what a write does to a cell: `range.values` retypes text the way typing it would (retype());
//    a 1x1 array or a single value is applied to every cell of the range; any other shape that does
//    not match the range fails with InvalidArgument; `null` leaves a cell as it is.
//  - a property or method this mock does not model throws MockGap (never a silent no-op): a gap in
//    the mock is then told apart from a failure of the code under test.

export const MAX_ROWS = 1048576;
export const MAX_COLS = 16384;
const DEFAULT_WIDTH = 48; // points: Calibri 11's 8.43 characters, 64 pixels
const DEFAULT_HEIGHT = 15;
const DEFAULT_FONT = { name: "Calibri", size: 11, color: "#000000", bold: false, italic: false,
  underline: "None", strikethrough: false };

/** An error as Office.js raises it (`RichApi.Error` with a code and where it happened). */
export class OfficeError extends Error {
  constructor(code, message, location) {
    super(message);
    this.name = "RichApi.Error";
    this.code = code;
    this.debugInfo = { code, message, errorLocation: location };
  }
}

/** Something the code under test used that this mock does not model. */
export class MockGap extends Error {
  constructor(what) {
    super(`the Excel mock does not model ${what}`);
    this.name = "MockGap";
  }
}

const notLoaded = (type, name) => new OfficeError("PropertyNotLoaded",
  `The property '${name}' is not available. Before reading the property's value, call the load method on the ` +
  `containing object and call "context.sync()" on the associated request context.`, `${type}.${name}`);
const invalid = (location, message = "The argument is invalid or missing or has an incorrect format.") =>
  new OfficeError("InvalidArgument", message, location);

// ------------------------------------------------------------------ addresses

export function columnName(index) {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function columnIndex(letters) {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n - 1;
}

function quoteSheet(name) {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** "A1", "A1:C3", "A:C", "2:4" (with or without $) as [r0, c0, rowCount, columnCount]; null if it is not one. */
export function parseArea(text) {
  const one = (part) => {
    const m = /^\$?([A-Za-z]{0,3})\$?(\d*)$/.exec(part.trim());
    if (!m || (!m[1] && !m[2])) return null;
    return { c: m[1] ? columnIndex(m[1]) : null, r: m[2] ? Number(m[2]) - 1 : null };
  };
  const [a, b = a, extra] = text.split(":");
  if (extra !== undefined) return null;
  const p = one(a), q = one(b);
  if (!p || !q || (p.c === null) !== (q.c === null) || (p.r === null) !== (q.r === null)) return null;
  const r0 = p.r ?? 0, r1 = q.r ?? MAX_ROWS - 1, c0 = p.c ?? 0, c1 = q.c ?? MAX_COLS - 1;
  const [rr0, rr1, cc0, cc1] = [Math.min(r0, r1), Math.max(r0, r1), Math.min(c0, c1), Math.max(c0, c1)];
  if (rr1 >= MAX_ROWS || cc1 >= MAX_COLS || rr0 < 0 || cc0 < 0) return null;
  return [rr0, cc0, rr1 - rr0 + 1, cc1 - cc0 + 1];
}

/** "Sheet!A1:B2" or "'My sheet'!A1" as [sheet name or null, area text]. */
function splitSheet(text) {
  const bang = text.lastIndexOf("!");
  if (bang < 0) return [null, text];
  let sheet = text.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return [sheet, text.slice(bang + 1)];
}

export function areaAddress(r, c, nr, nc) {
  if (r === 0 && nr === MAX_ROWS) return `${columnName(c)}:${columnName(c + nc - 1)}`;
  if (c === 0 && nc === MAX_COLS) return `${r + 1}:${r + nr}`;
  const first = `${columnName(c)}${r + 1}`;
  return nr === 1 && nc === 1 ? first : `${first}:${columnName(c + nc - 1)}${r + nr}`;
}

// ------------------------------------------------------------------ number formats and typed text

const BUILTIN_DATE = new Set(["m/d/yyyy", "d-mmm-yy", "d-mmm", "mmm-yy", "m/d/yyyy h:mm"]); // ids 14-17, 22
const BUILTIN_TIME = new Set(["h:mm AM/PM", "h:mm:ss AM/PM", "h:mm", "h:mm:ss", "mm:ss", "[h]:mm:ss", "mm:ss.0"]);

/** Whether a format code shows a date or a time (its tokens outside quotes, escapes and brackets). */
export function isDateFormat(format) {
  const code = String(format).replace(/"[^"]*"|\\.|_.|\*./g, "");
  if (/\[(h+|m+|s+)\]/i.test(code)) return true;
  return /[dmyhs]/i.test(code.replace(/\[[^\]]*\]/g, "").replace(/general/gi, "").replace(/E[+-]/g, ""));
}

/** Excel's number format category, as `numberFormatCategories` reports it: the built-in date and
 * time formats are "Date" and "Time"; a format of one's own (such as "yyyy-mm-dd") is "Custom"
 * (xlwings-server 1.20's workbook-metadata.js: "Excel reports user-defined date/time formats as
 * Custom instead of Date or Time"). */
export function formatCategory(format) {
  if (format === "General") return "General";
  if (format === "@") return "Text";
  if (BUILTIN_DATE.has(format)) return "Date";
  if (BUILTIN_TIME.has(format)) return "Time";
  if (/^(#,##)?0(\.0+)?$/.test(format)) return "Number";
  if (/^0(\.0+)?%$/.test(format)) return "Percentage";
  if (/^0(\.0+)?E\+00$/.test(format)) return "Scientific";
  return "Custom";
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const ERRORS = ["#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA", "#SPILL!",
  "#CALC!", "#FIELD!", "#BUSY!", "#BLOCKED!", "#CONNECT!", "#UNKNOWN!", "#PYTHON!", "#EXTERNAL!"];

/** The serial number of a date (the 1900 date system), or null when it is no date. */
export function dateSerial(y, m, d) {
  if (y < 1900 || y > 9999 || m < 1 || m > 12 || d < 1) return null;
  const t = Date.UTC(y, m - 1, d);
  if (new Date(t).getUTCDate() !== d) return null;
  const serial = (t - Date.UTC(1899, 11, 30)) / 86400000;
  return serial < 61 ? serial - 1 : serial; // Excel's 1900-02-29
}

function year(text) {
  const n = Number(text);
  return text.length <= 2 ? (n < 30 ? 2000 + n : 1900 + n) : n;
}

function month(text) {
  const i = MONTHS.indexOf(text.slice(0, 3).toLowerCase());
  const full = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december"];
  return i >= 0 && (text.length === 3 || full[i] === text.toLowerCase()) ? i + 1 : null;
}

const MON = "([A-Za-z]{3,9})";
/** [serial, the format Excel gives the cell] of a date as typed in en-US, or null. */
function parseDate(s) {
  let m;
  const today = new Date();
  const pick = (y, mo, d, format) => {
    const serial = mo && dateSerial(y, mo, d);
    return serial ? [serial, format] : null;
  };
  if ((m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s))) return pick(+m[1], +m[2], +m[3], "m/d/yyyy");
  if ((m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(s))) return pick(year(m[3]), +m[1], +m[2], "m/d/yyyy");
  if ((m = /^(\d{1,2})[/-](\d{1,2})$/.exec(s))) return pick(today.getFullYear(), +m[1], +m[2], "d-mmm");
  if ((m = new RegExp(`^(\\d{1,2})[- ]${MON}[- ](\\d{2}|\\d{4})$`).exec(s))) return pick(year(m[3]), month(m[2]), +m[1], "d-mmm-yy");
  if ((m = new RegExp(`^(\\d{1,2})[- ]${MON}$`).exec(s))) return pick(today.getFullYear(), month(m[2]), +m[1], "d-mmm");
  if ((m = new RegExp(`^${MON}[- ](\\d{4})$`).exec(s))) return pick(+m[2], month(m[1]), 1, "mmm-yy");
  if ((m = new RegExp(`^${MON} (\\d{1,2}),? (\\d{4})$`).exec(s))) return pick(+m[3], month(m[1]), +m[2], "d-mmm-yy");
  return null;
}

/** [fraction of a day, the format] of a time as typed, or null. */
function parseTime(s) {
  const m = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?(?:\s*([AaPp])[Mm]?)?$/.exec(s);
  if (!m) return null;
  let h = +m[1];
  const min = +m[2], sec = m[3] ? +m[3] : 0;
  if (min > 59 || sec >= 60 || (m[4] && (h < 1 || h > 12))) return null;
  if (m[4]) h = (h % 12) + (m[4].toLowerCase() === "p" ? 12 : 0);
  const format = m[4] ? (m[3] ? "h:mm:ss AM/PM" : "h:mm AM/PM") : h >= 24 ? "[h]:mm:ss" : m[3] ? "h:mm:ss" : "h:mm";
  return [(h * 3600 + min * 60 + sec) / 86400, format];
}

const NUMBER = /^([+-]?)(\$?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?(%?)$/;

/** What typing ``text`` into a cell gives in Excel (en-US), as Office.js does for a string written
 * through `range.values` (the Office.js reference of Range.values: "If the returned value starts
 * with a plus ("+"), minus ("-"), or equal sign ("="), Excel interprets this value as a formula";
 * OfficeDev/office-js issue 229: "2018-12-31" becomes a date formatted "m/d/yyyy").  A leading
 * apostrophe keeps the rest as text; so does a cell formatted as text ("@").
 * Returns {value, formula, error, format (the cell's new format, or undefined), quotePrefix}. */
export function retype(text, cellFormat) {
  if (text.startsWith("'")) return { value: text.slice(1), quotePrefix: true };
  if (cellFormat === "@" || text === "") return { value: text };
  const s = text.trim();
  const general = cellFormat === "General";
  const keepDate = isDateFormat(cellFormat);
  if (text.startsWith("=")) {
    if (s.length === 1) throw invalid("Range.values", `Excel does not accept the formula ${JSON.stringify(text)}.`);
    return { value: "", formula: text };
  }
  let m = NUMBER.exec(s.replace(/^\((.*)\)$/, "-$1"));
  if (m) {
    let value = Number(m[3].replace(/,/g, "")) * 10 ** Number(m[4] || 0) * (m[1] === "-" || s.startsWith("(") ? -1 : 1);
    const decimals = (m[3].split(".")[1] || "").length > 0;
    let format;
    if (m[5]) { value /= 100; format = decimals ? "0.00%" : "0%"; }
    else if (m[2]) format = decimals ? "$#,##0.00" : "$#,##0";
    else if (m[4]) format = "0.00E+00";
    else if (m[3].includes(",")) format = decimals ? "#,##0.00" : "#,##0";
    return { value, format: general ? format : undefined };
  }
  if ((s.startsWith("+") || s.startsWith("-")) && s.length > 1) return { value: "", formula: "=" + s };
  if (/^(true|false)$/i.test(s)) return { value: s.toLowerCase() === "true" };
  const error = ERRORS.find((e) => e === s.toUpperCase());
  if (error) return { value: error, error: true };
  if ((m = /^(\d+) (\d+)\/(\d+)$/.exec(s)) && +m[3] > 0) return { value: +m[1] + +m[2] / +m[3], format: general ? "# ?/?" : undefined };
  const [datePart, timePart] = (() => {
    const at = s.indexOf(" ", /^[A-Za-z]/.test(s) ? s.search(/\d{4}/) : 0);
    return at > 0 && parseTime(s.slice(at + 1).trim()) ? [s.slice(0, at), s.slice(at + 1).trim()] : [s, null];
  })();
  const date = parseDate(datePart);
  if (date) {
    const time = timePart ? parseTime(timePart) : null;
    return { value: date[0] + (time ? time[0] : 0), format: keepDate ? undefined : time ? "m/d/yyyy h:mm" : date[1] };
  }
  const time = parseTime(s);
  if (time) return { value: time[0], format: keepDate ? undefined : time[1] };
  return { value: text };
}

// ------------------------------------------------------------------ the workbook in memory

function colour(value, location) {
  const text = String(value).trim();
  if (/^#[0-9a-f]{6}$/i.test(text)) return text.toUpperCase();
  const named = { black: "#000000", white: "#FFFFFF", red: "#FF0000", green: "#008000", blue: "#0000FF",
    yellow: "#FFFF00", orange: "#FFA500", gray: "#808080", grey: "#808080", purple: "#800080" }[text.toLowerCase()];
  if (named) return named;
  throw invalid(location, `The color ${JSON.stringify(value)} is not one the mock knows (#RRGGBB or a basic name).`);
}

class Cell {
  constructor() {
    this.value = "";
    this.formula = null;
    this.error = false;
    this.numberFormat = "General";
    this.fill = null;
    this.font = {};
    this.quotePrefix = false;
    this.align = {};
  }

  get empty() { return this.value === "" && this.formula === null; }
  get plain() {
    return this.empty && this.numberFormat === "General" && this.fill === null && !Object.keys(this.font).length
      && !this.quotePrefix && !Object.keys(this.align).length;
  }

  copy() {
    const c = Object.assign(new Cell(), this);
    c.font = { ...this.font };
    c.align = { ...this.align };
    return c;
  }
}

let sheetIds = 0;

class SheetModel {
  constructor(book, name) {
    this.book = book;
    this.id = `{mock-sheet-${++sheetIds}}`;
    this.name = name;
    this.visibility = "Visible";
    this.cells = new Map();
    this.widths = new Map();
    this.heights = new Map();
    this.freeze = null; // [rows, columns]
    this.printArea = null;
    this.validations = new Map(); // cell key -> validation (shared by the cells of one rule)
    this.selection = "A1";
    this.showGridlines = true;
    this.tabColor = "";
    this.names = []; // the defined names of the sheet's scope
    this.deleted = false;
  }

  key(r, c) { return r * MAX_COLS + c; }
  at(r, c) { return this.cells.get(this.key(r, c)); }
  cell(r, c) {
    const k = this.key(r, c);
    let cell = this.cells.get(k);
    if (!cell) this.cells.set(k, (cell = new Cell()));
    return cell;
  }

  get position() { return this.book.sheets.indexOf(this); }

  /** [r, c, rowCount, columnCount] of the cells with a value (valuesOnly) or also a format, or null. */
  used(valuesOnly) {
    let r0 = Infinity, c0 = Infinity, r1 = -1, c1 = -1;
    for (const [k, cell] of this.cells) {
      if (valuesOnly ? cell.empty : cell.plain) continue;
      const r = Math.floor(k / MAX_COLS), c = k % MAX_COLS;
      r0 = Math.min(r0, r); c0 = Math.min(c0, c); r1 = Math.max(r1, r); c1 = Math.max(c1, c);
    }
    return r1 < 0 ? null : [r0, c0, r1 - r0 + 1, c1 - c0 + 1];
  }

  /** The keys of the stored cells inside a rectangle (a big rectangle: only those stored). */
  *keysIn([r, c, nr, nc], map = this.cells) {
    if (nr * nc <= map.size * 4) {
      for (let i = r; i < r + nr; i++) for (let j = c; j < c + nc; j++) if (map.has(this.key(i, j))) yield this.key(i, j);
      return;
    }
    for (const k of map.keys()) {
      const i = Math.floor(k / MAX_COLS), j = k % MAX_COLS;
      if (i >= r && i < r + nr && j >= c && j < c + nc) yield k;
    }
  }
}

class BookModel {
  constructor(state) {
    this.name = state.name;
    this.sheets = [];
    this.calculationMode = "Automatic";
    this.names = []; // the defined names of the workbook's scope
    for (const s of state.sheets) {
      const sheet = new SheetModel(this, s.name);
      sheet.visibility = s.visibility || "Visible";
      sheet.selection = s.selection || "A1";
      sheet.freeze = s.freeze || null;
      sheet.printArea = s.printArea || null;
      for (const [col, pt] of Object.entries(s.widths || {})) sheet.widths.set(Number(col), pt);
      for (const [row, pt] of Object.entries(s.heights || {})) sheet.heights.set(Number(row), pt);
      for (const x of s.cells || []) {
        const cell = sheet.cell(x.r, x.c);
        if (x.v !== undefined && x.v !== null) cell.value = x.v;
        if (x.f) cell.formula = x.f;
        if (x.e) cell.error = true;
        if (x.nf) cell.numberFormat = x.nf;
        if (x.fill) cell.fill = x.fill;
        if (x.font) cell.font = { ...x.font };
        if (x.q) cell.quotePrefix = true;
      }
      for (const dv of s.validations || []) {
        const rule = { type: dv.type, rule: dv.rule, ignoreBlanks: dv.ignoreBlanks ?? true, prompt: dv.prompt || {},
          errorAlert: dv.errorAlert || {} };
        for (const area of dv.sqref.split(/\s+/).filter(Boolean)) {
          const [r, c, nr, nc] = parseArea(area);
          for (let i = r; i < r + nr; i++) for (let j = c; j < c + nc; j++) sheet.validations.set(sheet.key(i, j), rule);
        }
      }
      this.sheets.push(sheet);
    }
    this.active = this.sheets[state.active || 0];
  }

  sheetNamed(name) {
    return this.sheets.find((s) => s.name.toLowerCase() === String(name).toLowerCase())
      || this.sheets.find((s) => s.id === name) || null;
  }

  checkName(name, location, except = null) {
    if (typeof name !== "string" || !name.length || name.length > 31 || /[\[\]:*?/\\]/.test(name)
        || name.startsWith("'") || name.endsWith("'")) {
      throw invalid(location, `The sheet name ${JSON.stringify(name)} is not allowed in Excel.`);
    }
    const other = this.sheetNamed(name);
    if (other && other !== except) {
      throw new OfficeError("ItemAlreadyExists", "A resource with the same name or identifier already exists.", location);
    }
  }

  visible() { return this.sheets.filter((s) => s.visibility === "Visible"); }

  /** The sheet Excel shows when ``sheet`` goes (hidden or deleted): the next visible one, else the one before. */
  activateAwayFrom(sheet) {
    if (this.active !== sheet) return;
    const i = this.sheets.indexOf(sheet);
    this.active = this.sheets.slice(i + 1).find((s) => s.visibility === "Visible" && s !== sheet)
      || this.sheets.slice(0, i).reverse().find((s) => s.visibility === "Visible");
  }

  /** The workbook as plain data (the same shape as the state it was made from, see harness.py). */
  dump() {
    return {
      name: this.name,
      active: this.sheets.indexOf(this.active),
      sheets: this.sheets.map((s) => {
        const cells = [];
        for (const [k, cell] of s.cells) {
          if (cell.plain) continue;
          const x = { r: Math.floor(k / MAX_COLS), c: k % MAX_COLS };
          if (!cell.empty) x.v = cell.value;
          if (cell.formula !== null) x.f = cell.formula;
          if (cell.error) x.e = true;
          if (cell.numberFormat !== "General") x.nf = cell.numberFormat;
          if (cell.fill) x.fill = cell.fill;
          if (Object.keys(cell.font).length) x.font = cell.font;
          if (cell.quotePrefix) x.q = true;
          cells.push(x);
        }
        const rules = new Map();
        for (const [k, rule] of s.validations) {
          if (!rules.has(rule)) rules.set(rule, []);
          rules.get(rule).push(areaAddress(Math.floor(k / MAX_COLS), k % MAX_COLS, 1, 1));
        }
        return {
          name: s.name, visibility: s.visibility, selection: s.selection, freeze: s.freeze, printArea: s.printArea,
          widths: Object.fromEntries(s.widths), heights: Object.fromEntries(s.heights), cells,
          validations: [...rules].map(([rule, where]) => ({ sqref: where.join(" "), type: rule.type, rule: rule.rule,
            ignoreBlanks: rule.ignoreBlanks, prompt: rule.prompt, errorAlert: rule.errorAlert })),
        };
      }),
    };
  }
}

// ------------------------------------------------------------------ proxies, loads and batches

const ABSENT_OK = new Set(["then", "toJSON", "constructor", "inspect", "nodeType", "$$typeof", "asymmetricMatch"]);

/** Split a load argument ("a, b", ["a", "b/c"], {select, expand}) into paths. */
function loadPaths(spec) {
  if (spec === undefined || spec === null) return [];
  if (Array.isArray(spec)) return spec.flatMap(loadPaths);
  if (typeof spec === "object") return [...loadPaths(spec.select), ...loadPaths(spec.expand)];
  // Office.js documents a comma-delimited list; xlwings-server 1.12 also loads "name names".
  return String(spec).split(/[\s,]+/).filter(Boolean);
}

class ApiObject {
  static type = "Object";
  static props = {}; // name -> {get(model), set(model, value)}
  static nav = {}; // name -> (self) => child proxy

  constructor(ctx, resolver, { nullable = false } = {}) {
    this._ctx = ctx;
    this._resolver = resolver;
    this._bound = false;
    this._model = undefined;
    this._loaded = new Map();
    this._children = new Map();
    this._nullable = nullable;
    this._nullKnown = false;
    const proxy = new Proxy(this, {
      get(target, prop, receiver) {
        if (typeof prop === "symbol" || prop in target || ABSENT_OK.has(prop)) return Reflect.get(target, prop, receiver);
        throw new MockGap(`${target.constructor.type}.${prop}`);
      },
      set(target, prop, value, receiver) {
        if (typeof prop === "symbol" || prop in target || prop.startsWith("_")) return Reflect.set(target, prop, value, receiver);
        throw new MockGap(`setting ${target.constructor.type}.${prop}`);
      },
    });
    if (nullable) this._op("resolve", () => { this._m(); this._nullKnown = true; });
    return proxy;
  }

  get context() { return this._ctx; }

  /** The model object, resolved at its first use inside a sync (as Office.js binds a proxy). */
  _m() {
    if (!this._bound) {
      this._model = this._resolver();
      this._bound = true;
    }
    if (this._model === null && !this._nullable) {
      throw new OfficeError("ItemNotFound", "The requested resource doesn't exist.", this.constructor.type);
    }
    return this._model;
  }

  _op(what, fn) {
    this._ctx._queue.push({ what: `${this.constructor.type}.${what}`, fn });
  }

  _child(name, make) {
    if (!this._children.has(name)) this._children.set(name, make());
    return this._children.get(name);
  }

  get isNullObject() {
    if (!this._nullable) return false;
    if (!this._nullKnown) throw notLoaded(this.constructor.type, "isNullObject");
    return this._model === null;
  }

  load(spec) {
    const paths = loadPaths(spec);
    this._op("load", () => this._load(paths.length ? paths : [""]));
    return this;
  }

  _load(paths) {
    const model = this._m();
    for (const path of paths) this._loadPath(path.split("/").filter(Boolean), model);
  }

  _loadPath(segments, model) {
    const cls = this.constructor;
    if (!segments.length) {
      for (const [name, p] of Object.entries(cls.props)) this._loaded.set(name, model === null ? null : p.get.call(this, model));
      return;
    }
    const [head, ...rest] = segments;
    if (head in cls.props && !rest.length) {
      this._loaded.set(head, model === null ? null : cls.props[head].get.call(this, model));
    } else if (head in cls.nav) {
      const child = this[head];
      child._loadPath(rest, model === null ? null : child._m());
    } else {
      throw new MockGap(`loading ${cls.type}.${segments.join("/")}`);
    }
  }

  toJSON() { return Object.fromEntries(this._loaded); }

  static define() {
    for (const [name, p] of Object.entries(this.props)) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get() {
          if (this._loaded.has(name)) return this._loaded.get(name);
          throw notLoaded(this.constructor.type, name);
        },
        set(value) {
          if (!p.set) throw new TypeError(`${this.constructor.type}.${name} is read-only`);
          this._loaded.set(name, value);
          this._op(`${name}=`, () => {
            const model = this._m();
            if (model !== null) p.set.call(this, model, value);
          });
        },
      });
    }
    for (const [name, make] of Object.entries(this.nav)) {
      Object.defineProperty(this.prototype, name, { configurable: true, get() { return this._child(name, () => make(this)); } });
    }
    return this;
  }
}

/** A collection: `items` after a load; a load of item properties loads them on every item. */
class ApiCollection extends ApiObject {
  static itemClass = null;

  get items() {
    if (this._loaded.has("items")) return this._loaded.get("items");
    throw notLoaded(this.constructor.type, "items");
  }

  _itemModels(model) { return model === null ? [] : model; }

  _loadPath(segments, model) {
    if (segments[0] === "items") segments = segments.slice(1);
    const items = this._itemModels(model).map((m) => this._item(m));
    this._loaded.set("items", items);
    for (const item of items) item._loadPath(segments, item._m());
  }

  _item(model) {
    return new this.constructor.itemClass(this._ctx, () => model);
  }

  getCount() {
    const result = new ClientResult();
    this._op("getCount", () => result._set(this._itemModels(this._m()).length));
    return result;
  }
}

class ClientResult {
  _set(value) { this._value = value; this._done = true; }
  get value() {
    if (!this._done) throw notLoaded("ClientResult", "value");
    return this._value;
  }
}

/** A collection this mock keeps empty (tables, shapes, charts, comments, notes, pivot tables). */
function emptyCollection(type) {
  return class extends ApiCollection {
    static type = type;
    _itemModels() { return []; }
    getItemOrNullObject() { return new NullObject(this._ctx, () => null, { nullable: true }); }
  };
}

class NullObject extends ApiObject {
  static type = "NullObject";
}

const EmptyCollections = Object.fromEntries(["TableCollection", "ShapeCollection", "ChartCollection",
  "CommentCollection", "NoteCollection", "PivotTableCollection", "ConditionalFormatCollection"]
  .map((type) => [type, emptyCollection(type).define()]));

// ------------------------------------------------------------------ Range

/** A range model: the sheet and a rectangle (row, column, rowCount, columnCount). */
function rect(sheet, r, c, nr, nc, location) {
  if (![r, c, nr, nc].every(Number.isInteger) || r < 0 || c < 0 || nr < 1 || nc < 1 || r + nr > MAX_ROWS
      || c + nc > MAX_COLS) {
    throw invalid(location, `The range (${r}, ${c}, ${nr}, ${nc}) is not on the sheet.`);
  }
  if (sheet.deleted) throw new OfficeError("InvalidReference", "This reference is not valid for the current operation.", location);
  return { sheet, r, c, nr, nc };
}

function eachCell(m, fn) {
  for (let i = 0; i < m.nr; i++) for (let j = 0; j < m.nc; j++) fn(m.r + i, m.c + j, i, j);
}

function bounded(m, what) {
  if (m.nr * m.nc > 5_000_000) throw new MockGap(`${what} of a range of ${m.nr} x ${m.nc} cells`);
}

function grid(m, what, read) {
  bounded(m, what);
  return Array.from({ length: m.nr }, (_, i) => Array.from({ length: m.nc }, (_, j) => read(m.sheet.at(m.r + i, m.c + j))));
}

/** The 2-D input of a range property, checked and broadcast as Office.js does. */
function broadcast(m, input, location) {
  if (!Array.isArray(input)) return () => input;
  if (input.length === 1 && Array.isArray(input[0]) && input[0].length === 1) return () => input[0][0];
  if (input.length !== m.nr || input.some((row) => !Array.isArray(row) || row.length !== m.nc)) {
    throw invalid(location, "The number of rows or columns in the input array doesn't match the size or dimensions of the range.");
  }
  return (i, j) => input[i][j];
}

function writeValue(cell, value, location) {
  if (value === null || value === undefined) return; // Office.js: a null leaves the cell as it is
  cell.formula = null;
  cell.error = false;
  cell.quotePrefix = false;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(location, `${value} is not a number Excel can hold.`);
    cell.value = value;
  } else if (typeof value === "boolean") {
    cell.value = value;
  } else if (typeof value === "string") {
    const typed = retype(value, cell.numberFormat);
    cell.value = typed.value;
    cell.formula = typed.formula ?? null;
    cell.error = Boolean(typed.error);
    cell.quotePrefix = Boolean(typed.quotePrefix);
    if (typed.format !== undefined) cell.numberFormat = typed.format;
  } else {
    throw invalid(location, `A cell cannot hold ${JSON.stringify(value)}.`);
  }
}

function uniform(m, read, fallback) {
  let first;
  let seen = false;
  bounded(m, "reading a format");
  for (let i = 0; i < m.nr; i++) for (let j = 0; j < m.nc; j++) {
    const v = read(m.sheet.at(m.r + i, m.c + j));
    if (!seen) { first = v; seen = true; } else if (v !== first) return null;
  }
  return seen ? first : fallback;
}

class Range extends ApiObject {
  static type = "Range";
  static props = {
    address: { get(m) { return `${quoteSheet(m.sheet.name)}!${areaAddress(m.r, m.c, m.nr, m.nc)}`; } },
    addressLocal: { get(m) { return `${quoteSheet(m.sheet.name)}!${areaAddress(m.r, m.c, m.nr, m.nc)}`; } },
    rowIndex: { get: (m) => m.r },
    columnIndex: { get: (m) => m.c },
    rowCount: { get: (m) => m.nr },
    columnCount: { get: (m) => m.nc },
    cellCount: { get: (m) => m.nr * m.nc },
    isEntireColumn: { get: (m) => m.r === 0 && m.nr === MAX_ROWS },
    isEntireRow: { get: (m) => m.c === 0 && m.nc === MAX_COLS },
    values: {
      get: (m) => grid(m, "values", (cell) => (cell ? cell.value : "")),
      set(m, input) {
        const value = broadcast(m, input, "Range.values");
        bounded(m, "writing values");
        eachCell(m, (r, c, i, j) => writeValue(m.sheet.cell(r, c), value(i, j), "Range.values"));
      },
    },
    formulas: {
      get: (m) => grid(m, "formulas", (cell) => (cell ? cell.formula ?? cell.value : "")),
      set(m, input) {
        const value = broadcast(m, input, "Range.formulas");
        bounded(m, "writing formulas");
        eachCell(m, (r, c, i, j) => writeValue(m.sheet.cell(r, c), value(i, j), "Range.formulas"));
      },
    },
    numberFormat: {
      get: (m) => grid(m, "numberFormat", (cell) => (cell ? cell.numberFormat : "General")),
      set(m, input) {
        const value = broadcast(m, input, "Range.numberFormat");
        bounded(m, "writing number formats");
        eachCell(m, (r, c, i, j) => {
          const v = value(i, j);
          if (v !== null && v !== undefined) m.sheet.cell(r, c).numberFormat = String(v);
        });
      },
    },
    numberFormatCategories: { get: (m) => grid(m, "numberFormatCategories", (cell) => formatCategory(cell ? cell.numberFormat : "General")) },
    valueTypes: {
      get: (m) => grid(m, "valueTypes", (cell) => !cell || cell.empty ? "Empty" : cell.error ? "Error"
        : typeof cell.value === "number" ? "Double" : typeof cell.value === "boolean" ? "Boolean" : "String"),
    },
  };

  static nav = {
    format: (self) => new RangeFormat(self._ctx, () => self._m()),
    dataValidation: (self) => new DataValidation(self._ctx, () => self._m()),
    worksheet: (self) => new Worksheet(self._ctx, () => self._m().sheet),
  };

  _range(fn) { return new Range(this._ctx, () => fn(this._m())); }

  getCell(row, column) { return this._range((m) => rect(m.sheet, m.r + row, m.c + column, 1, 1, "Range.getCell")); }
  getLastCell() { return this._range((m) => rect(m.sheet, m.r + m.nr - 1, m.c + m.nc - 1, 1, 1, "Range.getLastCell")); }
  getEntireRow() { return this._range((m) => rect(m.sheet, m.r, 0, m.nr, MAX_COLS, "Range.getEntireRow")); }
  getEntireColumn() { return this._range((m) => rect(m.sheet, 0, m.c, MAX_ROWS, m.nc, "Range.getEntireColumn")); }
  getOffsetRange(dr, dc) { return this._range((m) => rect(m.sheet, m.r + dr, m.c + dc, m.nr, m.nc, "Range.getOffsetRange")); }
  getResizedRange(dr, dc) { return this._range((m) => rect(m.sheet, m.r, m.c, m.nr + dr, m.nc + dc, "Range.getResizedRange")); }

  getSurroundingRegion() {
    // the current region: grown while a neighbouring row or column holds a value
    return this._range((m) => {
      let [r0, c0, r1, c1] = [m.r, m.c, m.r + m.nr - 1, m.c + m.nc - 1];
      const filled = (r, c) => r >= 0 && c >= 0 && m.sheet.at(r, c) && !m.sheet.at(r, c).empty;
      for (let grew = true; grew;) {
        grew = false;
        const rowHas = (r) => { for (let c = c0 - 1; c <= c1 + 1; c++) if (filled(r, c)) return true; return false; };
        const colHas = (c) => { for (let r = r0 - 1; r <= r1 + 1; r++) if (filled(r, c)) return true; return false; };
        if (r0 > 0 && rowHas(r0 - 1)) { r0--; grew = true; }
        if (rowHas(r1 + 1)) { r1++; grew = true; }
        if (c0 > 0 && colHas(c0 - 1)) { c0--; grew = true; }
        if (colHas(c1 + 1)) { c1++; grew = true; }
      }
      return rect(m.sheet, r0, c0, r1 - r0 + 1, c1 - c0 + 1, "Range.getSurroundingRegion");
    });
  }

  select() {
    this._op("select", () => {
      const m = this._m();
      if (m.sheet.visibility !== "Visible") throw new OfficeError("InvalidOperation", "A hidden sheet cannot be selected.", "Range.select");
      m.sheet.book.active = m.sheet;
      m.sheet.selection = areaAddress(m.r, m.c, m.nr, m.nc);
    });
  }

  clear(applyTo = "All") {
    this._op("clear", () => {
      const m = this._m();
      for (const k of [...m.sheet.keysIn([m.r, m.c, m.nr, m.nc])]) {
        const cell = m.sheet.cells.get(k);
        if (applyTo === "All" || applyTo === "Contents") { cell.value = ""; cell.formula = null; cell.error = false; }
        if (applyTo === "All" || applyTo === "Formats") {
          Object.assign(cell, { numberFormat: "General", fill: null, font: {}, align: {}, quotePrefix: false });
        }
        if (cell.plain) m.sheet.cells.delete(k);
      }
    });
  }

  copyFrom(source, copyType = "All", skipBlanks = false, transpose = false) {
    this._op("copyFrom", () => {
      const m = this._m();
      const src = typeof source === "string" ? resolveAddress(m.sheet.book, m.sheet, source, "Range.copyFrom") : source._m();
      if (transpose) throw new MockGap("Range.copyFrom with transpose");
      const copies = [];
      eachCell(src, (r, c, i, j) => copies.push([i, j, src.sheet.at(r, c)]));
      for (const [i, j, cell] of copies) {
        if (skipBlanks && (!cell || cell.empty)) continue;
        const target = m.sheet.cell(m.r + i, m.c + j);
        const from = cell || new Cell();
        if (copyType === "All" || copyType === "Values" || copyType === "Formulas") {
          Object.assign(target, { value: from.value, formula: copyType === "Values" ? null : from.formula, error: from.error });
        }
        if (copyType === "All" || copyType === "Formats") {
          Object.assign(target, { numberFormat: from.numberFormat, fill: from.fill, font: { ...from.font },
            align: { ...from.align }, quotePrefix: from.quotePrefix });
        }
      }
    });
  }
}
Range.define();

function widthOf(sheet, c) { return sheet.widths.get(c) ?? DEFAULT_WIDTH; }

class RangeFormat extends ApiObject {
  static type = "RangeFormat";
  static props = {
    columnWidth: {
      get(m) { let w = null; for (let c = m.c; c < m.c + Math.min(m.nc, 1000); c++) { const x = widthOf(m.sheet, c); if (w === null) w = x; else if (w !== x) return null; } return w; },
      set(m, pt) {
        if (!Number.isFinite(pt) || pt < 0) throw invalid("RangeFormat.columnWidth");
        for (let c = m.c; c < m.c + m.nc; c++) m.sheet.widths.set(c, pt);
      },
    },
    rowHeight: {
      get(m) { let h = null; for (let r = m.r; r < m.r + Math.min(m.nr, 1000); r++) { const x = m.sheet.heights.get(r) ?? DEFAULT_HEIGHT; if (h === null) h = x; else if (h !== x) return null; } return h; },
      set(m, pt) { for (let r = m.r; r < m.r + m.nr; r++) m.sheet.heights.set(r, pt); },
    },
    wrapText: alignProp("wrapText", false),
    horizontalAlignment: alignProp("horizontalAlignment", "General"),
    verticalAlignment: alignProp("verticalAlignment", "Bottom"),
  };

  static nav = {
    fill: (self) => new RangeFill(self._ctx, () => self._m()),
    font: (self) => new RangeFont(self._ctx, () => self._m()),
  };

  autofitColumns() { this._op("autofitColumns", () => this._m()); } // the widths Excel would measure are unknown here
  autofitRows() { this._op("autofitRows", () => this._m()); }
}

function alignProp(name, fallback) {
  return {
    get: (m) => uniform(m, (cell) => (cell && name in cell.align ? cell.align[name] : fallback), fallback),
    set(m, value) { bounded(m, `setting ${name}`); eachCell(m, (r, c) => { m.sheet.cell(r, c).align[name] = value; }); },
  };
}
RangeFormat.define();

class RangeFill extends ApiObject {
  static type = "RangeFill";
  static props = {
    color: {
      get: (m) => uniform(m, (cell) => (cell && cell.fill) || "#FFFFFF", "#FFFFFF"),
      set(m, value) {
        const fill = colour(value, "RangeFill.color");
        bounded(m, "setting a fill");
        eachCell(m, (r, c) => { m.sheet.cell(r, c).fill = fill; });
      },
    },
  };

  clear() {
    this._op("clear", () => {
      const m = this._m();
      for (const k of m.sheet.keysIn([m.r, m.c, m.nr, m.nc])) m.sheet.cells.get(k).fill = null;
    });
  }
}
RangeFill.define();

function fontProp(name, check) {
  return {
    get: (m) => uniform(m, (cell) => (cell && name in cell.font ? cell.font[name] : DEFAULT_FONT[name]), DEFAULT_FONT[name]),
    set(m, value) {
      const v = check(value);
      bounded(m, `setting font.${name}`);
      eachCell(m, (r, c) => { m.sheet.cell(r, c).font[name] = v; });
    },
  };
}

class RangeFont extends ApiObject {
  static type = "RangeFont";
  static props = {
    bold: fontProp("bold", Boolean),
    italic: fontProp("italic", Boolean),
    strikethrough: fontProp("strikethrough", Boolean),
    color: fontProp("color", (v) => colour(v, "RangeFont.color")),
    size: fontProp("size", (v) => { if (!(Number(v) > 0)) throw invalid("RangeFont.size"); return Number(v); }),
    name: fontProp("name", String),
    underline: fontProp("underline", String),
  };
}
RangeFont.define();

const RULE_TYPES = { wholeNumber: "WholeNumber", decimal: "Decimal", list: "List", date: "Date", time: "Time",
  textLength: "TextLength", custom: "Custom" };

class DataValidation extends ApiObject {
  static type = "DataValidation";
  static props = {
    type: {
      get(m) {
        const seen = new Set();
        let cells = 0;
        for (const k of m.sheet.keysIn([m.r, m.c, m.nr, m.nc], m.sheet.validations)) { seen.add(m.sheet.validations.get(k)); cells++; }
        if (!seen.size) return "None";
        return seen.size === 1 && cells === m.nr * m.nc ? [...seen][0].type : "Inconsistent";
      },
    },
    rule: {
      get: (m) => validationOf(m)?.rule ?? {},
      set(m, rule) {
        const keys = Object.keys(rule || {});
        if (keys.length !== 1 || !(keys[0] in RULE_TYPES)) throw invalid("DataValidation.rule");
        const old = validationOf(m);
        setValidation(m, { type: RULE_TYPES[keys[0]], rule, ignoreBlanks: old?.ignoreBlanks ?? true,
          prompt: old?.prompt ?? {}, errorAlert: old?.errorAlert ?? {} });
      },
    },
    ignoreBlanks: validationProp("ignoreBlanks", true),
    prompt: validationProp("prompt", {}),
    errorAlert: validationProp("errorAlert", {}),
    valid: { get: () => true },
  };

  clear() {
    this._op("clear", () => {
      const m = this._m();
      for (const k of [...m.sheet.keysIn([m.r, m.c, m.nr, m.nc], m.sheet.validations)]) m.sheet.validations.delete(k);
    });
  }
}

function validationOf(m) {
  const first = m.sheet.validations.get(m.sheet.key(m.r, m.c));
  return first || null;
}

function setValidation(m, validation) {
  bounded(m, "setting a data validation");
  eachCell(m, (r, c) => m.sheet.validations.set(m.sheet.key(r, c), validation));
}

function validationProp(name, fallback) {
  return {
    get: (m) => validationOf(m)?.[name] ?? fallback,
    set(m, value) {
      const old = validationOf(m);
      if (!old) throw invalid(`DataValidation.${name}`, "Set the rule of a data validation first.");
      setValidation(m, { ...old, [name]: value });
    },
  };
}
DataValidation.define();

class RangeAreas extends ApiObject {
  static type = "RangeAreas";
  static props = {
    address: { get: (m) => m.map((a) => `${quoteSheet(a.sheet.name)}!${areaAddress(a.r, a.c, a.nr, a.nc)}`).join(",") },
    areaCount: { get: (m) => m.length },
  };

  static nav = {
    areas: (self) => new RangeCollection(self._ctx, () => self._m()),
  };
}
RangeAreas.define();

class RangeCollection extends ApiCollection {
  static type = "RangeCollection";
  static itemClass = Range;
}
RangeCollection.define();

/** A range model from an address on ``sheet``: "A1:B2", "Sheet!A1:B2", and "A1:Sheet!H85" (the range
 * operator between two references on one sheet, which xlwings-server 1.12's getBookData builds). */
function resolveAddress(book, sheet, text, location) {
  const parts = String(text).trim().match(/('[^']*(?:''[^']*)*'|[^:'])+/g) || [];
  let target = null;
  const refs = [];
  for (const part of parts) {
    const [name, ref] = splitSheet(part);
    if (name !== null) {
      const named = book.sheetNamed(name);
      if (!named || (target && named !== target)) throw invalid(location, `${JSON.stringify(text)} is not a range on one sheet.`);
      target = named;
    }
    refs.push(ref);
  }
  const parsed = refs.length <= 2 && parseArea(refs.join(":"));
  if (!parsed) throw invalid(location, `${JSON.stringify(text)} is not a range address.`);
  return rect(target || sheet, ...parsed, location);
}

// ------------------------------------------------------------------ Worksheet

class FreezePanes extends ApiObject {
  static type = "WorksheetFreezePanes";

  freezeAt(frozen) {
    this._op("freezeAt", () => {
      const sheet = this._m();
      const m = typeof frozen === "string" ? resolveAddress(sheet.book, sheet, frozen, "WorksheetFreezePanes.freezeAt") : frozen._m();
      sheet.freeze = [m.r + m.nr, m.c + m.nc].map((n, i) => (n >= (i ? MAX_COLS : MAX_ROWS) ? 0 : n));
      if (m.r === 0 && m.nr === MAX_ROWS) sheet.freeze[0] = 0;
      if (m.c === 0 && m.nc === MAX_COLS) sheet.freeze[1] = 0;
    });
  }

  freezeRows(count = 1) { this._op("freezeRows", () => { this._m().freeze = [count, 0]; }); }
  freezeColumns(count = 1) { this._op("freezeColumns", () => { this._m().freeze = [0, count]; }); }
  unfreeze() { this._op("unfreeze", () => { this._m().freeze = null; }); }
}
FreezePanes.define();

class PageLayout extends ApiObject {
  static type = "PageLayout";

  setPrintArea(area) {
    this._op("setPrintArea", () => {
      const sheet = this._m();
      if (area === "") { sheet.printArea = null; return; }
      const parts = typeof area === "string" ? area.split(",") : null;
      const models = parts ? parts.map((p) => resolveAddress(sheet.book, sheet, p, "PageLayout.setPrintArea")) : [area._m()].flat();
      if (models.some((m) => m.sheet !== sheet)) throw invalid("PageLayout.setPrintArea", "A print area must be on its own sheet.");
      sheet.printArea = models.map((m) => areaAddress(m.r, m.c, m.nr, m.nc)).join(",");
    });
  }

  _areas(sheet) {
    return sheet.printArea === null ? null
      : sheet.printArea.split(",").map((a) => rect(sheet, ...parseArea(a), "PageLayout.getPrintArea"));
  }

  getPrintAreaOrNullObject() { return new RangeAreas(this._ctx, () => this._areas(this._m()), { nullable: true }); }
  getPrintArea() { return new RangeAreas(this._ctx, () => this._areas(this._m())); }
}
PageLayout.define();

class NamedItem extends ApiObject {
  static type = "NamedItem";
  static props = {
    name: { get: (m) => m.name },
    type: { get: (m) => m.type },
    formula: { get: (m) => m.formula },
    value: { get: (m) => m.formula.replace(/^=/, "") },
    visible: { get: () => true },
    comment: { get: () => "" },
    scope: { get: (m) => (m.sheet ? "Worksheet" : "Workbook") },
  };

  static nav = {
    worksheet: (self) => new Worksheet(self._ctx, () => self._m().sheet),
    worksheetOrNullObject: (self) => new Worksheet(self._ctx, () => self._m().sheet || null, { nullable: true }),
  };

  _target(m) {
    if (m.type !== "Range") return null;
    const [name, area] = splitSheet(m.formula.replace(/^=/, ""));
    const sheet = m.book.sheetNamed(name);
    const parsed = sheet && parseArea(area);
    return parsed ? rect(sheet, ...parsed, "NamedItem.getRange") : null;
  }

  getRangeOrNullObject() { return new Range(this._ctx, () => this._target(this._m()), { nullable: true }); }
  getRange() { return new Range(this._ctx, () => this._target(this._m())); }
  delete() { this._op("delete", () => { const m = this._m(); m.owner.splice(m.owner.indexOf(m), 1); }); }
}
NamedItem.define();

class NamedItemCollection extends ApiCollection {
  static type = "NamedItemCollection";
  static itemClass = NamedItem;

  // the model: the defined names of one scope, {list, book, sheet}
  _itemModels(scope) { return scope === null ? [] : scope.list; }

  add(name, reference) {
    let created;
    const item = new NamedItem(this._ctx, () => created);
    this._op("add", () => {
      const scope = this._m();
      const formula = typeof reference === "string" ? (reference.startsWith("=") ? reference : `=${reference}`)
        : `=${Range.props.address.get(reference._m())}`;
      created = { name, formula, type: "Range", book: scope.book, sheet: scope.sheet, owner: scope.list };
      scope.list.push(created);
    });
    return item;
  }

  _find(name) { return this._m().list.find((n) => n.name.toLowerCase() === String(name).toLowerCase()) || null; }
  getItemOrNullObject(name) { return new NamedItem(this._ctx, () => this._find(name), { nullable: true }); }
  getItem(name) { return new NamedItem(this._ctx, () => this._find(name)); }
}
NamedItemCollection.define();

function namesOf(book, sheet) {
  return { list: (sheet || book).names, book, sheet };
}

class Protection extends ApiObject {
  static type = "WorksheetProtection";
  static props = { protected: { get: () => false } };
}
Protection.define();

class Worksheet extends ApiObject {
  static type = "Worksheet";
  static props = {
    name: { get: (s) => s.name, set(s, v) { s.book.checkName(v, "Worksheet.name", s); s.name = v; } },
    id: { get: (s) => s.id },
    position: {
      get: (s) => s.position,
      set(s, v) {
        const to = Number(v);
        if (!Number.isInteger(to) || to < 0 || to >= s.book.sheets.length) throw invalid("Worksheet.position");
        s.book.sheets.splice(s.position, 1);
        s.book.sheets.splice(to, 0, s);
      },
    },
    visibility: {
      get: (s) => s.visibility,
      set(s, v) {
        if (!["Visible", "Hidden", "VeryHidden"].includes(v)) throw invalid("Worksheet.visibility");
        if (v !== "Visible" && s.visibility === "Visible" && s.book.visible().length === 1) {
          throw new OfficeError("InvalidOperation", "A workbook must contain at least one visible worksheet.", "Worksheet.visibility");
        }
        s.visibility = v;
        if (v !== "Visible") s.book.activateAwayFrom(s);
      },
    },
    showGridlines: { get: (s) => s.showGridlines, set(s, v) { s.showGridlines = Boolean(v); } },
    tabColor: { get: (s) => s.tabColor, set(s, v) { s.tabColor = v ? colour(v, "Worksheet.tabColor") : ""; } },
    standardWidth: { get: () => 8.43 },
    standardHeight: { get: () => DEFAULT_HEIGHT },
  };

  static nav = {
    freezePanes: (self) => new FreezePanes(self._ctx, () => self._m()),
    pageLayout: (self) => new PageLayout(self._ctx, () => self._m()),
    names: (self) => new NamedItemCollection(self._ctx, () => namesOf(self._m().book, self._m())),
    protection: (self) => new Protection(self._ctx, () => self._m()),
    tables: (self) => new EmptyCollections.TableCollection(self._ctx, () => self._m()),
    shapes: (self) => new EmptyCollections.ShapeCollection(self._ctx, () => self._m()),
    charts: (self) => new EmptyCollections.ChartCollection(self._ctx, () => self._m()),
    comments: (self) => new EmptyCollections.CommentCollection(self._ctx, () => self._m()),
    notes: (self) => new EmptyCollections.NoteCollection(self._ctx, () => self._m()),
    pivotTables: (self) => new EmptyCollections.PivotTableCollection(self._ctx, () => self._m()),
  };

  _m() {
    const sheet = super._m();
    if (sheet && sheet.deleted) throw new OfficeError("ItemNotFound", "The requested resource doesn't exist.", "Worksheet");
    return sheet;
  }

  getRange(address) {
    return new Range(this._ctx, () => {
      const sheet = this._m();
      return address === undefined ? rect(sheet, 0, 0, MAX_ROWS, MAX_COLS, "Worksheet.getRange")
        : resolveAddress(sheet.book, sheet, address, "Worksheet.getRange");
    });
  }

  getRanges(address) {
    if (address !== undefined) throw new MockGap("Worksheet.getRanges with an address");
    return this.getRange();
  }

  getRangeByIndexes(r, c, nr, nc) {
    return new Range(this._ctx, () => rect(this._m(), r, c, nr, nc, "Worksheet.getRangeByIndexes"));
  }

  getCell(r, c) { return this.getRangeByIndexes(r, c, 1, 1); }

  _used(valuesOnly) {
    const sheet = this._m();
    const used = sheet.used(Boolean(valuesOnly));
    return used ? rect(sheet, ...used, "Worksheet.getUsedRange") : null;
  }

  getUsedRange(valuesOnly = false) {
    return new Range(this._ctx, () => {
      // "If the entire worksheet is blank, this function will return the top left cell"
      return this._used(valuesOnly) || rect(this._m(), 0, 0, 1, 1, "Worksheet.getUsedRange");
    });
  }

  getUsedRangeOrNullObject(valuesOnly = false) {
    return new Range(this._ctx, () => this._used(valuesOnly), { nullable: true });
  }

  activate() {
    this._op("activate", () => {
      const sheet = this._m();
      if (sheet.visibility !== "Visible") throw new OfficeError("InvalidOperation", "A hidden sheet cannot be activated.", "Worksheet.activate");
      sheet.book.active = sheet;
    });
  }

  delete() {
    this._op("delete", () => {
      const sheet = this._m();
      const book = sheet.book;
      if (book.visible().length === 1 && sheet.visibility === "Visible") {
        throw new OfficeError("InvalidOperation", "A workbook must contain at least one visible worksheet.", "Worksheet.delete");
      }
      book.activateAwayFrom(sheet);
      book.sheets.splice(sheet.position, 1);
      sheet.deleted = true;
    });
  }

  copy(positionType = "None", relativeTo) {
    let created;
    const copy = new Worksheet(this._ctx, () => created);
    this._op("copy", () => {
      const sheet = this._m();
      const book = sheet.book;
      let name;
      for (let n = 2; ; n++) {
        name = `${sheet.name.slice(0, 31 - ` (${n})`.length)} (${n})`;
        if (!book.sheetNamed(name)) break;
      }
      created = new SheetModel(book, name);
      for (const [k, cell] of sheet.cells) created.cells.set(k, cell.copy());
      for (const [k, rule] of sheet.validations) created.validations.set(k, rule);
      created.widths = new Map(sheet.widths);
      created.heights = new Map(sheet.heights);
      Object.assign(created, { visibility: sheet.visibility, freeze: sheet.freeze && [...sheet.freeze],
        printArea: sheet.printArea, selection: sheet.selection, showGridlines: sheet.showGridlines, tabColor: sheet.tabColor });
      const anchor = relativeTo ? relativeTo._m() : null;
      // "The default value is None, which inserts the worksheet at the beginning of the worksheet."
      const at = { None: 0, Beginning: 0, End: book.sheets.length, Before: anchor?.position, After: anchor && anchor.position + 1 }[positionType];
      if (at === undefined || at === null) throw invalid("Worksheet.copy", `positionType ${positionType} needs relativeTo.`);
      book.sheets.splice(at, 0, created);
    });
    return copy;
  }

  calculate() { this._op("calculate", () => this._m()); }
}
Worksheet.define();

class WorksheetCollection extends ApiCollection {
  static type = "WorksheetCollection";
  static itemClass = Worksheet;

  _itemModels(book) { return book.sheets; }

  getItem(key) { return new Worksheet(this._ctx, () => this._m().sheetNamed(key)); }
  getItemOrNullObject(key) { return new Worksheet(this._ctx, () => this._m().sheetNamed(key), { nullable: true }); }
  getActiveWorksheet() { return new Worksheet(this._ctx, () => this._m().active); }
  getFirst() { return new Worksheet(this._ctx, () => this._m().sheets[0]); }
  getLast() { return new Worksheet(this._ctx, () => this._m().sheets.at(-1)); }

  add(name) {
    let created;
    const sheet = new Worksheet(this._ctx, () => created);
    this._op("add", () => {
      const book = this._m();
      let chosen = name;
      if (chosen === undefined || chosen === null) {
        for (let n = book.sheets.length + 1; book.sheetNamed((chosen = `Sheet${n}`)); n++);
      }
      book.checkName(chosen, "WorksheetCollection.add");
      created = new SheetModel(book, chosen); // "added at the end of existing worksheets"
      book.sheets.push(created);
    });
    return sheet;
  }
}
WorksheetCollection.define();

// ------------------------------------------------------------------ Workbook, Application, RequestContext

class CultureInfo extends ApiObject {
  static type = "CultureInfo";
  static props = { name: { get: () => "en-US" } };
  static nav = { datetimeFormat: (self) => new DatetimeFormat(self._ctx, () => ({})) };
}
class DatetimeFormat extends ApiObject {
  static type = "DatetimeFormatInfo";
  static props = { shortDatePattern: { get: () => "M/d/yyyy" } };
}
DatetimeFormat.define();
CultureInfo.define();

class Application extends ApiObject {
  static type = "Application";
  static props = {
    calculationMode: { get: (b) => b.calculationMode, set(b, v) { b.calculationMode = String(v); } },
  };

  static nav = { cultureInfo: (self) => new CultureInfo(self._ctx, () => ({})) };

  calculate() { this._op("calculate", () => this._m()); }
  suspendScreenUpdatingUntilNextSync() {}
}
Application.define();

class Workbook extends ApiObject {
  static type = "Workbook";
  static props = { name: { get: (b) => b.name } };

  static nav = {
    worksheets: (self) => new WorksheetCollection(self._ctx, () => self._m()),
    names: (self) => new NamedItemCollection(self._ctx, () => namesOf(self._m(), null)),
    application: (self) => new Application(self._ctx, () => self._m()),
    tables: (self) => new EmptyCollections.TableCollection(self._ctx, () => self._m()),
    comments: (self) => new EmptyCollections.CommentCollection(self._ctx, () => self._m()),
  };

  getSelectedRange() {
    return new Range(this._ctx, () => {
      const book = this._m();
      return resolveAddress(book, book.active, book.active.selection, "Workbook.getSelectedRange");
    });
  }

  getActiveCell() { return this.getSelectedRange().getCell(0, 0); }
}
Workbook.define();

export class RequestContext {
  constructor(book) {
    this._queue = [];
    this.workbook = new Workbook(this, () => book);
    this.application = this.workbook.application;
    this.trackedObjects = { add() {}, remove() {} };
  }

  /** Run the queued operations in order; the first that fails stops the batch (those before it stay). */
  async sync() {
    const queue = this._queue;
    this._queue = [];
    for (const { what, fn } of queue) {
      try {
        fn();
      } catch (error) {
        if (error && typeof error === "object") error.statement = what;
        throw error;
      }
    }
  }
}

/** `globalThis.Excel` for a book: `Excel.run(batch)` and the enums xlwings' JavaScript reads. */
export function excelNamespace(getBook) {
  return {
    run: async (batch) => {
      const context = new RequestContext(getBook());
      const result = await batch(context);
      await context.sync();
      return result;
    },
    RequestContext: class { constructor() { return new RequestContext(getBook()); } },
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents", hyperlinks: "Hyperlinks", removeHyperlinks: "RemoveHyperlinks" },
    ShapeType: { image: "Image", geometricShape: "GeometricShape", group: "Group", line: "Line", textBox: "TextBox" },
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
    SaveBehavior: { save: "Save", prompt: "Prompt" },
    DeleteShiftDirection: { up: "Up", left: "Left" },
    InsertShiftDirection: { down: "Down", right: "Right" },
    GroupOption: { byRows: "ByRows", byColumns: "ByColumns" },
    WorksheetPositionType: { none: "None", before: "Before", after: "After", beginning: "Beginning", end: "End" },
  };
}

export { BookModel };

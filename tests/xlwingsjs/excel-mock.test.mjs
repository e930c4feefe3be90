// The Excel mock does what Office.js documents (node --test; run by test_excel_mock.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { BookModel, MockGap, OfficeError, RequestContext, dateSerial, formatCategory, retype } from "./excel-mock.mjs";

const book = (sheets = [{ name: "Sheet1" }]) => new BookModel({ name: "Book1.xlsx", active: 0, sheets });
const rejects = (promise, code) => assert.rejects(promise, (e) => e instanceof OfficeError && e.code === code);

test("text written through values is retyped as typing it would be (en-US)", () => {
  // OfficeDev/office-js issue 229: "2018-12-31" becomes a date formatted m/d/yyyy
  assert.deepEqual(retype("2018-12-31", "General"), { value: 43465, format: "m/d/yyyy" });
  assert.deepEqual(retype("12", "General"), { value: 12, format: undefined });
  assert.deepEqual(retype("-3.5", "General"), { value: -3.5, format: undefined });
  assert.deepEqual(retype("=A1", "General"), { value: "", formula: "=A1" });
  assert.deepEqual(retype("-x", "General"), { value: "", formula: "=-x" });
  assert.deepEqual(retype("2026-11-30 12:00", "General"), { value: 46356.5, format: "m/d/yyyy h:mm" });
  assert.deepEqual(retype("50%", "General"), { value: 0.5, format: "0%" });
  assert.deepEqual(retype("1,000", "General"), { value: 1000, format: "#,##0" });
  assert.deepEqual(retype("12:30", "General"), { value: 0.5208333333333334, format: "h:mm" });
  assert.deepEqual(retype("1-2", "General"), { value: dateSerial(new Date().getFullYear(), 1, 2), format: "d-mmm" });
  assert.deepEqual(retype("TRUE", "General"), { value: true });
  assert.deepEqual(retype("#N/A", "General"), { value: "#N/A", error: true });
  assert.throws(() => retype("=", "General"), (e) => e.code === "InvalidArgument");
});

test("an apostrophe, a text format and words keep text", () => {
  assert.deepEqual(retype("'2018-12-31", "General"), { value: "2018-12-31", quotePrefix: true });
  assert.deepEqual(retype("'=", "General"), { value: "=", quotePrefix: true });
  assert.deepEqual(retype("12", "@"), { value: "12" });
  for (const text of ["Avond 2025-09-04", "1,5", "-", "T15", "s1", "2025/2026", "A, B"]) {
    assert.deepEqual(retype(text, "General"), { value: text }, text);
  }
});

test("a date keeps the date format its cell has; dates are 1900-system serials", () => {
  assert.deepEqual(retype("2026-01-15", "yyyy-mm-dd"), { value: 46037, format: undefined });
  assert.equal(dateSerial(1900, 3, 1), 61);
  assert.equal(dateSerial(2025, 2, 29), null);
});

test("number format categories: built-in dates are Date, a format of one's own is Custom", () => {
  assert.equal(formatCategory("m/d/yyyy"), "Date");
  assert.equal(formatCategory("h:mm"), "Time");
  assert.equal(formatCategory("yyyy-mm-dd"), "Custom");
  assert.equal(formatCategory("0.00"), "Number");
  assert.equal(formatCategory("General"), "General");
});

test("a property is readable after load and sync, not before", async () => {
  const context = new RequestContext(book());
  const range = context.workbook.worksheets.getItem("Sheet1").getRange("B2");
  assert.throws(() => range.values, (e) => e.code === "PropertyNotLoaded");
  range.values = [["2018-12-31"]];
  range.load("values, numberFormat, address");
  await context.sync();
  assert.deepEqual(range.values, [[43465]]);
  assert.deepEqual(range.numberFormat, [["m/d/yyyy"]]);
  assert.equal(range.address, "Sheet1!B2");
});

test("a failing operation stops its batch; those before it stay applied", async () => {
  const model = book();
  const context = new RequestContext(model);
  const sheet = context.workbook.worksheets.getItem("Sheet1");
  sheet.getRange("A1").values = [["before"]];
  sheet.getRange("A2:B2").values = [[1, 2, 3]];
  sheet.getRange("A3").values = [["after"]];
  await rejects(context.sync(), "InvalidArgument");
  assert.equal(model.sheets[0].at(0, 0).value, "before");
  assert.equal(model.sheets[0].at(2, 0), undefined);
});

test("a 1x1 array is applied to every cell of the range", async () => {
  const model = book();
  const context = new RequestContext(model);
  const range = context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 3, 2);
  range.numberFormat = [["0.00"]];
  range.values = [[7]];
  await context.sync();
  assert.equal(model.sheets[0].at(2, 1).numberFormat, "0.00");
  assert.equal(model.sheets[0].at(2, 1).value, 7);
});

test("the used range: of values, or of values and formats; an empty sheet", async () => {
  const model = book([{ name: "S", cells: [{ r: 1, c: 1, v: 5 }, { r: 9, c: 3, fill: "#FFF2CC" }] }, { name: "Empty" }]);
  const context = new RequestContext(model);
  const sheets = context.workbook.worksheets;
  const values = sheets.getItem("S").getUsedRange(true).load("address");
  const all = sheets.getItem("S").getUsedRange().load("address");
  const blank = sheets.getItem("Empty").getUsedRange().load("address");
  const none = sheets.getItem("Empty").getUsedRangeOrNullObject(true).load("address");
  assert.throws(() => none.isNullObject, (e) => e.code === "PropertyNotLoaded");
  await context.sync();
  assert.equal(values.address, "S!B2");
  assert.equal(all.address, "S!B2:D10");
  assert.equal(blank.address, "Empty!A1"); // "If the entire worksheet is blank, ... the top left cell"
  assert.equal(none.isNullObject, true);
});

test("the range operator between two references of one sheet (xlwings-server 1.12's getBookData)", async () => {
  const context = new RequestContext(book([{ name: "Avond 1" }]));
  const range = context.workbook.worksheets.getItem("Avond 1").getRange("A1:'Avond 1'!C4").load("address");
  await context.sync();
  assert.equal(range.address, "'Avond 1'!A1:C4");
});

test("sheets: added at the end, names unique, one sheet always visible, hidden ones not active", async () => {
  const model = book([{ name: "A" }, { name: "B" }]);
  let context = new RequestContext(model);
  context.workbook.worksheets.add("C");
  await context.sync();
  assert.deepEqual(model.sheets.map((s) => s.name), ["A", "B", "C"]);
  context.workbook.worksheets.add("b");
  await rejects(context.sync(), "ItemAlreadyExists");
  context = new RequestContext(model);
  context.workbook.worksheets.getItem("A").visibility = "Hidden";
  await context.sync();
  assert.equal(model.active.name, "B");
  context.workbook.worksheets.getItem("B").visibility = "Hidden";
  context.workbook.worksheets.getItem("C").visibility = "Hidden";
  await rejects(context.sync(), "InvalidOperation");
  context.workbook.worksheets.getItem("A").activate();
  await rejects(context.sync(), "InvalidOperation");
});

test("a fill: set, read (#FFFFFF for none, null when mixed), cleared", async () => {
  const model = book();
  const context = new RequestContext(model);
  const sheet = context.workbook.worksheets.getItem("Sheet1");
  sheet.getRange("A1").format.fill.color = "#fff2cc";
  const mixed = sheet.getRange("A1:A2").format.fill.load("color");
  const none = sheet.getRange("B1").format.fill.load("color");
  await context.sync();
  assert.equal(model.sheets[0].at(0, 0).fill, "#FFF2CC");
  assert.equal(mixed.color, null);
  assert.equal(none.color, "#FFFFFF");
  sheet.getRange("A1").format.fill.clear();
  await context.sync();
  assert.equal(model.sheets[0].at(0, 0).fill, null);
});

test("what the mock does not model fails loudly", () => {
  const context = new RequestContext(book());
  const range = context.workbook.worksheets.getItem("Sheet1").getRange("A1");
  assert.throws(() => range.conditionalFormats, MockGap);
  assert.throws(() => { range.style = "Good"; }, MockGap);
});

"""What a file must be before it is read: an .xlsx by its signature, and within one memory budget.

openpyxl holds a whole workbook in memory: its cells, formats and strings as Python objects, several
times the size of the XML they come from.  Before issue 25 a zip bomb (a 1.6 MB file whose sheet
unpacks to 1 GiB) took 3.2 GB, a 4 GiB part 4.3 GB, 16 MB of cell formats 2.8 GB, and a 3 GB file was
read whole before its signature said it was no workbook.  Now every file is measured first against
one :class:`Budget`, by what holding it costs:

- the file itself, read once: its size (:func:`opened`, on the open file, before a byte is read;
  with its signature);
- every zip entry: ``per_entry`` (counted by the entries' signatures, before the zip's directory is
  parsed into objects);
- every part: ``per_byte`` times its unpacked size -- first as the zip's directory declares it
  (nothing is unpacked yet), then as it really unpacks (streamed, nothing kept; a part never unpacks
  to more than it declares -- the zip module stops there and the CRC check finds the lie);
- every XML element of an XML part: ``per_cell`` for those of cells and strings, ``per_sheet`` for a
  sheet of the workbook, ``per_element`` for any other (each above the dearest openpyxl object of
  its kind measured).

The message names the part.  The figures behind the charges and the memory a run takes are in
docs/reliability.md ("The memory budget").
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
import zlib
from dataclasses import dataclass
from typing import IO

from xlbridge.files.problems import FileProblem
from xlbridge.rules.problems import N_, Problem

MB = 1 << 20
CHUNK = MB
#: an OLE compound file: an encrypted .xlsx, or an old .xls
OLE = b"\xd0\xcf\x11\xe0"
ZIP = b"PK\x03\x04"
CENTRAL = b"PK\x01\x02"  # a zip entry's record in the central directory

SIZE = N_("{name} is {size:,} MB; xlbridge reads workbooks of up to {limit:,} MB (reading one takes several times "
          "its size in memory); nothing was changed")
PARTS = N_("{name} holds {parts:,} parts; reading them would need about {need:,} MB of memory, more than the "
           "{budget:,} MB xlbridge allows one workbook; nothing was changed")
UNPACKED = N_("{name}: its part {part} unpacks to {size:,} MB; the whole workbook would need about {need:,} MB of "
              "memory, more than the {budget:,} MB xlbridge allows one workbook; nothing was changed")
ELEMENTS = N_("{name}: its part {part} holds {elements:,} XML elements ({size:,} MB unpacked); the whole workbook "
              "would need about {need:,} MB of memory, more than the {budget:,} MB xlbridge allows one workbook; "
              "nothing was changed")
SHEET_PART = N_("{part} (sheet {sheet})")


#: The elements of cells and strings (openpyxl makes a cell, a value or a string of them): the cheap ones.
#: Not a row: with attributes (Excel writes them) it is a row dimension of 1.2 KB.
CELL_TAGS = (b"<c ", b"<c>", b"<v>", b"<f>", b"<f ", b"<is>", b"<t>", b"<t ", b"<si>")
#: A sheet of the workbook part: openpyxl makes a whole worksheet of it.
SHEET_TAG = b"<sheet "


@dataclass(frozen=True)
class Budget:
    """The memory one workbook may cost, and the charges (bytes of memory) it is measured with; each
    charge is above the dearest thing of its kind measured (docs/reliability.md)."""

    total: int = 768 * MB
    per_byte: int = 3  # of a part, unpacked: read, parsed, kept as text (a thumbnail: 3x, measured)
    per_entry: int = 1024  # a zip entry (Python's ZipInfo, about 450 bytes)
    per_cell: int = 384  # an element of CELL_TAGS (a cell of c and v: 447 bytes, measured)
    per_sheet: int = 32 * 1024  # a <sheet> (an openpyxl worksheet: 15 KB)
    per_element: int = 2048  # any other XML element (a row with attributes, a data validation: 1.2 KB)

    @property
    def largest_file(self) -> int:
        """The largest file that can fit: it is held once and its parts unpack to at least its size."""
        return self.total // (1 + self.per_byte)

    def elements(self, cells: int, sheets: int, others: int) -> int:
        """What XML elements cost."""
        return cells * self.per_cell + sheets * self.per_sheet + others * self.per_element


BUDGET = Budget()


def megabytes(size: int) -> int:
    """``size`` bytes in whole MB, rounded up (a part of 10 bytes is "1 MB", not "0 MB")."""
    return -(-size // MB)


def damaged(name: object, part: str) -> FileProblem:
    return FileProblem("file.damaged", N_("{name} is damaged (part {part} does not read back); restore it from its "
                                          "backup"), name=name, part=part)


def signature_problem(head: bytes, name: object) -> FileProblem | None:
    """What the first bytes of a file say it is not."""
    if head.startswith(OLE):
        return FileProblem("file.protected", N_("{name} is password-protected or an old .xls workbook; save it from "
                                                "Excel as an unprotected .xlsx workbook first"), name=name)
    if not head.startswith(ZIP):
        return FileProblem("file.not-zip", N_("{name} is not an .xlsx workbook (damaged, or another kind of file "
                                              "renamed)"), name=name)
    return None


def opened(handle: IO[bytes], size: int, name: object, budget: Budget = BUDGET) -> None:
    """The open file ``handle`` of ``size`` bytes, before it is read: its signature, then its size."""
    head = handle.read(len(ZIP))
    handle.seek(0)
    problem = signature_problem(head, name)
    if problem is not None:
        raise problem
    if size > budget.largest_file:
        raise FileProblem("file.size", SIZE, name=name, size=megabytes(size), limit=budget.largest_file // MB)


def directory_records(data: bytes) -> int:
    """The entries the zip's central directory holds, counted by their signature in the directory itself (as
    its end record, or the zip64 one, places it): what Python's zip module will make an object of, whatever
    count the end record claims."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))
    if end < 0:
        return 0
    size, offset = int.from_bytes(data[end + 12:end + 16], "little"), int.from_bytes(data[end + 16:end + 20], "little")
    locator = end - 20
    if locator >= 0 and data[locator:locator + 4] == b"PK\x06\x07":
        record = int.from_bytes(data[locator + 8:locator + 16], "little")
        if data[record:record + 4] == b"PK\x06\x06":
            size = int.from_bytes(data[record + 40:record + 48], "little")
            offset = int.from_bytes(data[record + 48:record + 56], "little")
    return data.count(CENTRAL, offset, offset + size)


def check_entries(data: bytes, name: object, budget: Budget = BUDGET) -> None:
    """Before the zip's directory is parsed (an object per entry): the entries it holds."""
    count = directory_records(data)
    need = len(data) + count * budget.per_entry
    if need > budget.total:
        raise FileProblem("file.parts", PARTS, name=name, parts=count, need=megabytes(need), budget=budget.total // MB)


def check_parts(archive: zipfile.ZipFile, size: int, name: object, budget: Budget = BUDGET) -> None:
    """Every part of ``archive`` (a file of ``size`` bytes) within ``budget``: as declared, then as it
    unpacks, streamed; a part that does not read back is damaged."""
    infos = archive.infolist()
    spent = size + sum(budget.per_entry + budget.per_byte * i.file_size for i in infos)
    if spent > budget.total:
        largest = max(infos, key=lambda i: i.file_size)
        raise _too_large(archive, budget, UNPACKED, name, largest.filename, spent, size=megabytes(largest.file_size))
    dearest = (0, "", 0, 0)  # (cost, part, unpacked size, XML elements) of the dearest part so far
    for info in infos:
        counts, unpacked = _stream(archive, info, name)
        cost = budget.elements(*counts)
        spent += cost
        dearest = max(dearest, (cost + budget.per_byte * unpacked, info.filename, unpacked, sum(counts)))
        if spent > budget.total:
            _, part, unpacked, elements = dearest
            raise _too_large(archive, budget, ELEMENTS, name, part, spent, size=megabytes(unpacked),
                             elements=elements)


def _stream(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: object) -> tuple[tuple[int, int, int], int]:
    """((cell, sheet and other XML elements), unpacked bytes) of one part, read a megabyte at a time;
    nothing is kept."""
    cells = sheets = others = unpacked = 0
    xml = None
    try:
        with archive.open(info) as part:
            while chunk := part.read(CHUNK):
                if xml is None:  # an XML part starts with "<" (after a byte-order mark and white space)
                    xml = chunk.lstrip(b"\xef\xbb\xbf\xff\xfe\x00 \t\r\n")[:1] == b"<"
                unpacked += len(chunk)
                if xml:  # an element is a "<" that does not end one ("</"); a chunk's edge can miscount one
                    found = sum(chunk.count(tag) for tag in CELL_TAGS), chunk.count(SHEET_TAG)
                    cells, sheets = cells + found[0], sheets + found[1]
                    others += chunk.count(b"<") - chunk.count(b"</") - sum(found)
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError):  # CRC, data, encrypted
        raise damaged(name, info.filename) from None
    if unpacked != info.file_size:
        raise damaged(name, info.filename)
    return (cells, sheets, others), unpacked


def _too_large(archive: zipfile.ZipFile, budget: Budget, template: str, name: object, part: str, need: int,
               **params) -> FileProblem:
    """A file over the budget; the message in the workbook's language, where its sheet names tell it."""
    sheets, language = _sheets_and_language(archive)
    shown = Problem("file.part", SHEET_PART, part=part, sheet=sheets[part]) if part in sheets else part
    return FileProblem("file.too-large", template, name=name, part=shown, need=megabytes(need),
                       budget=budget.total // MB, language=language, **params)


#: The workbook part is read for its sheet names (the language, the sheet of a part) up to this size.
NAMES_PART = MB


def _sheets_and_language(archive: zipfile.ZipFile) -> tuple[dict[str, str], str | None]:
    """{worksheet part: its sheet's name} and the workbook's language, from its sheet names (a workbook
    whose own parts are too large or unreadable: none, and no language: the one the message is shown in)."""
    from xlbridge.files.package import Package, rels_name
    from xlbridge.workbooks.localised import language_of

    package = Package(archive)

    def small(part: str) -> bool:
        found = package.find(part)
        return found is not None and archive.getinfo(found).file_size <= NAMES_PART

    try:
        if not (small("_rels/.rels") and small(book := package.workbook()) and small(rels_name(book))):
            return {}, None
        sheets = {part: sheet for sheet, part in package.sheets().items()}
    except (ET.ParseError, ValueError, KeyError, zipfile.BadZipFile, zlib.error, EOFError):
        return {}, None

    class Names:  # the one thing language_of asks of a book
        @staticmethod
        def sheet_names() -> list[str]:
            return list(sheets.values())

    return sheets, language_of(Names())

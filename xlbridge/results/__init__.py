"""The evening's results from the scoring program: PBN and USEBIO files read into one typed result.

- :func:`read_results` -- a file's bytes (PBN or USEBIO, told apart by their
  first character) into a :class:`~xlbridge.results.model.Result`;
- :func:`~xlbridge.results.pbn.read_pbn`, :func:`~xlbridge.results.usebio.read_usebio`
  -- one format each;
- :mod:`~xlbridge.results.matchpoints` -- matchpoints from scores where a file
  gives none, and a rescale to another top.

A bad file raises :class:`~xlbridge.results.problems.ResultsFileError` listing
every problem (line or element, what is wrong); nothing else escapes.  Decisions
and limits: docs/import.md.
"""

from __future__ import annotations

from xlbridge.results.model import Event, Line, Optimum, Pair, Player, Result
from xlbridge.results.pbn import read_pbn
from xlbridge.results.problems import ResultsFileError
from xlbridge.results.usebio import read_usebio

__all__ = ["read_results", "read_pbn", "read_usebio", "Result", "Event", "Pair", "Player", "Line", "Optimum",
           "ResultsFileError"]


def read_results(data: bytes) -> Result:
    """The results of a PBN or USEBIO file: XML (its first character, after a BOM
    and white space, is ``<``) is read as USEBIO, anything else as PBN."""
    start = data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
    return read_usebio(data) if start.startswith(b"<") else read_pbn(data)

"""What the tests know of the closing alert of a click: whether a text is the "done" message."""

from __future__ import annotations

import re

from xlbridge.language import LANGUAGES, _, ngettext, speaking
from xlbridge.workbooks.messages import DONE, DONE_CHANGED, DONE_EMPTY


def is_done_message(text: str, *, empty: bool | None = None) -> bool:
    """Whether ``text`` is what :func:`~xlbridge.workbooks.messages.done_text` says, in any
    language (``empty``: only the "nothing is filled in yet" text, or only the others)."""
    templates = {True: (DONE_EMPTY,), False: (DONE, DONE_CHANGED)}.get(empty, (DONE, DONE_CHANGED, DONE_EMPTY))
    for language in LANGUAGES:
        with speaking(language):
            for template in templates:
                forms = [ngettext(*template, n) for n in (1, 2)] if isinstance(template, tuple) else [_(template)]
                for form in forms:
                    pattern = re.sub(r"\\\{\w+\\\}", ".*", re.escape(form))
                    if re.fullmatch(pattern + ".*", text, re.DOTALL):
                        return True
    return False

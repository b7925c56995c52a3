"""Penn Treebank tokenisation undone, so that texts written in PTB style (the SST sentence files) and plain texts
compare and hash alike."""

from __future__ import annotations

import re

_PTB = [(" n't", "n't"), (" 's", "'s"), (" 're", "'re"), (" 've", "'ve"), (" 'll", "'ll"), (" 'd", "'d"),
        (" 'm", "'m"), ("-lrb- ", "("), (" -rrb-", ")"), ("-lrb-", "("), ("-rrb-", ")"), ("`` ", '"'), (" ''", '"')]


def detokenize_ptb(text: str) -> str:
    """Undo the PTB tokenisation of the SST sentence files (``wo n't`` → ``won't``, ``-lrb-`` → ``(``)."""
    for old, new in _PTB:
        text = text.replace(old, new)
    return re.sub(r" ([.,;:!?%])", r"\1", text)


__all__ = ["detokenize_ptb"]

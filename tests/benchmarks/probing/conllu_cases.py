"""Build small hand-made CoNLL-U files for the converter tests (each case is derived by hand in the test)."""

from __future__ import annotations

from pathlib import Path

# a word: (form, upos, feats, head, deprel)
Word = tuple[str, str, str, int, str]


def sentence(text: str | None, words: list[Word], sent_id: str | None = None) -> str:
    lines = []
    if sent_id:
        lines.append(f"# sent_id = {sent_id}")
    if text is not None:
        lines.append(f"# text = {text}")
    for i, (form, upos, feats, head, deprel) in enumerate(words, start=1):
        lines.append(f"{i}\t{form}\t{form.lower()}\t{upos}\t_\t{feats}\t{head}\t{deprel}\t_\t_")
    return "\n".join(lines) + "\n\n"


def labelled(word: str, feats: str, n: int, prefix: str, upos: str = "NOUN", deprel: str = "nsubj") -> str:
    """``n`` distinct two-word sentences whose only featured word (the dependent) has ``feats``."""
    return "".join(sentence(f"{prefix}{i} {word}", [(f"{prefix}{i}", "VERB", "_", 0, "root"),
                                                    (word, upos, feats, 1, deprel)], f"{prefix}{i}")
                   for i in range(n))


def write(folder: Path, name: str, *blocks: str) -> Path:
    path = folder / name
    path.write_text("".join(blocks), encoding="utf-8")
    return path

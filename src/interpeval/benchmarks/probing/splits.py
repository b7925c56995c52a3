"""Split plans that turn sentences grouped by label into ``tr`` / ``va`` / ``te`` parts.

Two plans live here because the converter offers both: :func:`official_file_parts` reproduces the Universal
Probing Framework's ``generate_probing_file`` (REFERENCE §3.1) call for call, and :func:`stratified_parts` is the
default mode's deterministic per-label split with correct part names.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

#: The original's split plan by number of files (``ud_config.py``).
OFFICIAL_PLANS: dict[int, tuple[list[list[str]], list[list[float]]]] = {
    1: ([["tr", "va", "te"]], [[0.8, 0.1, 0.1]]),
    2: ([["tr"], ["va", "te"]], [[1.0], [0.5, 0.5]]),
    3: ([["tr"], ["va"], ["te"]], [[1.0], [1.0], [1.0]]),
}

Parts = dict[str, tuple[list[str], list[str]]]


def official_file_parts(classified: dict[str, list[str]], splits: list[str], partitions: list[float],
                        seed: int = 42) -> tuple[Parts, str]:
    """One file's parts exactly as the original: ``({part: (sentences, labels)}, reason)``.

    ``classified`` maps label → sentences in file order, labels in order of first appearance (the original's
    ``defaultdict`` order, which decides what ``train_test_split`` shuffles). An empty dict comes back with the
    original's warning as ``reason``.
    """
    from sklearn.model_selection import train_test_split

    num_classes = len(classified)
    if num_classes == 1:
        return {}, "has only one class"
    if num_classes == 0:
        return {}, "no examples in this file"
    if len(splits) == 1:  # the whole file is one part: no frequency filter
        texts = [s for sentences in classified.values() for s in sentences]
        labels = [label for label, sentences in classified.items() for _ in sentences]
        return {splits[0]: (texts, labels)}, ""
    # QUIRK: a class is kept only with strictly more sentences than there are classes.
    kept = [(s, label) for label, sentences in classified.items() if len(sentences) > num_classes
            for s in sentences]
    if not kept:
        return {}, "not enough data for stratified split"
    data, labels = map(np.array, zip(*kept, strict=True))
    x_train, x_test, y_train, y_test = train_test_split(
        data, labels, stratify=labels, train_size=partitions[0], shuffle=True, random_state=seed)
    if len(partitions) == 2:
        return {splits[0]: (list(x_train), list(y_train)), splits[1]: (list(x_test), list(y_test))}, ""
    repeated = [label for label, count in Counter(y_test).items() if count > 1]
    if len(repeated) < 2:
        return {}, "not enough data for stratified split"
    x_train, y_train = x_train[np.isin(y_train, repeated)], y_train[np.isin(y_train, repeated)]
    x_test, y_test = x_test[np.isin(y_test, repeated)], y_test[np.isin(y_test, repeated)]
    val_size = partitions[1] / (1 - partitions[0])
    x_first, x_second, y_first, y_second = train_test_split(
        x_test, y_test, stratify=y_test, train_size=val_size, shuffle=True, random_state=seed)
    # QUIRK: the first (floor-sized) part is named te and the second va.
    return {splits[0]: (list(x_train), list(y_train)), splits[1]: (list(x_second), list(y_second)),
            splits[2]: (list(x_first), list(y_first))}, ""


def stratified_parts(labels: list[str], fractions: dict[str, float], seed: int) -> dict[str, list[int]]:
    """Row indices per part: for each label (sorted), a seeded permutation cut by ``fractions``.

    The parts other than the first get ``floor(n * fraction)`` rows of each label and the first part the rest,
    so a label with few examples stays in the first part (training) instead of failing the split.
    """
    names = list(fractions)
    by_label: dict[str, list[int]] = {}
    for index, label in enumerate(labels):
        by_label.setdefault(label, []).append(index)
    rng = np.random.default_rng(seed)
    out: dict[str, list[int]] = {name: [] for name in names}
    for label in sorted(by_label):
        rows = [by_label[label][i] for i in rng.permutation(len(by_label[label]))]
        start = 0
        for name in names[1:]:
            size = int(len(rows) * fractions[name])
            out[name].extend(rows[start:start + size])
            start += size
        out[names[0]].extend(rows[start:])
    return {name: sorted(rows) for name, rows in out.items()}

"""The shared input checks (``metrics/_checks.py``), through the metrics that use them: each message names the
argument, the record and what is wrong."""

from __future__ import annotations

import pytest

from interpeval.metrics.consistency import pcc_ding_koehn_mean
from interpeval.metrics.localisation import snr_continuous
from interpeval.metrics.plausibility import token_f1


def test_a_value_that_is_not_a_number_is_named_with_numpy_s_reason():
    with pytest.raises(ValueError, match=r"^scores: expected a 1-D sequence of numbers \(could not convert string to "
                                         r"float: 'a'\)$"):
        snr_continuous([1, 0], ["a", 0.5])


def test_a_collection_of_the_wrong_type_is_named_with_its_type():
    with pytest.raises(ValueError, match=r"^gold: expected a sequence of integer indices, got int$"):
        token_f1([1], 5)
    # a string is not a sequence of pairs, even though it can be iterated
    with pytest.raises(ValueError, match=r"^pairs: expected a sequence, got str$"):
        pcc_ding_koehn_mean("ab")
    with pytest.raises(ValueError, match=r"^pairs: expected a sequence, got int$"):
        pcc_ding_koehn_mean(5)

"""The official mode against cases derived by hand from REFERENCE §3.1 (one test per quirk)."""

import csv

import pytest
from conllu_cases import labelled, sentence, write

from interpeval.benchmarks.probing.ud import UDConverter, find_treebanks


def rows(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def parts(path):
    out = {}
    for part, _, _ in rows(path):
        out[part] = out.get(part, 0) + 1
    return out


# A word deep under an earlier dependent vs a direct later dependent of the root:
# root b(2) → a(1, no feats) → c(3, Number=Plur); b → d(4, Number=Sing).
DFS_VS_DEPTH = sentence("a b c d", [("a", "NOUN", "_", 2, "obj"), ("b", "VERB", "_", 0, "root"),
                                    ("c", "NOUN", "Number=Plur", 1, "nmod"), ("d", "NOUN", "Number=Sing", 2, "obl")])


def test_dfs_preorder_picks_the_grandchild_under_the_earlier_dependent(tmp_path):
    path = write(tmp_path, "xx_t-ud-test.conllu", DFS_VS_DEPTH)
    tasks, _ = UDConverter(official=True).tasks([path])
    # one file, one class → the category is dropped; look at the extraction instead
    from interpeval.benchmarks.probing.ud import extract_file

    extract = extract_file((str(path), True, None, None, None, False))
    assert [label for _, label, _, _ in extract.records["Number"]] == ["Plur"]
    assert tasks == []


def test_one_file_plan_rare_filter_and_swapped_va_te(tmp_path):
    # A: 13, B: 12, C: 2 sentences. num_classes = 3, C has 2 <= 3 → filtered (REFERENCE: count > num_classes).
    # 25 left: train_size 0.8 → n_train = floor(0.8·25) = 20, n_test = ceil(0.2·25) = 5 (A 3, B 2 by stratify).
    # Both test labels occur > 1 → second split of 5 with train_size 0.5000000000000001: first part
    # floor(2.5000000000000004) = 2 rows, second 3 rows. QUIRK: te = first (2), va = second (3).
    path = write(tmp_path, "xx_t-ud-test.conllu", labelled("w", "Number=Sing", 13, "a"),
                 labelled("w", "Number=Plur", 12, "b"), labelled("w", "Number=Dual", 2, "c"))
    manifest = UDConverter(official=True).convert([path], tmp_path / "out")
    out = tmp_path / "out" / "xx_t_no_sorting_Number.csv"  # file naming: {stem.split('-')[0]}_no_sorting_{cat}
    assert parts(out) == {"tr": 20, "va": 3, "te": 2}
    assert [r[0] for r in rows(out)] == ["tr"] * 20 + ["va"] * 3 + ["te"] * 2
    assert {r[1] for r in rows(out)} == {"Sing", "Plur"}
    assert manifest["tasks"][0]["counts"] == {"tr": 20, "va": 3, "te": 2}


def test_sentence_text_is_wordpunct_joined_and_sentences_without_metadata_are_skipped(tmp_path):
    body = labelled("w", "Number=Sing", 13, "a") + labelled("w", "Number=Plur", 12, "b")
    odd = sentence("Don't stop.", [("Do", "AUX", "_", 3, "aux"), ("n't", "PART", "_", 3, "advmod"),
                                   ("stop", "VERB", "Number=Sing", 0, "root"), (".", "PUNCT", "_", 3, "punct")])
    bare = sentence(None, [("x", "NOUN", "Number=Plur", 0, "root")])
    path = write(tmp_path, "xx_t-ud-test.conllu", body, odd, bare)
    UDConverter(official=True).convert([path], tmp_path / "out")
    texts = [r[2] for r in rows(tmp_path / "out" / "xx_t_no_sorting_Number.csv")]
    assert "Don ' t stop ." in texts and "Don't stop." not in texts
    # 'x' has no metadata → skipped; A 13 + "Don't stop." = 14 Sing, B 12 Plur → 26 sentences:
    # n_train = floor(0.8·26) = 20, n_test = 6 (3 + 3), then te = floor(0.5000000000000001·6) = 3, va = 3.
    assert parts(tmp_path / "out" / "xx_t_no_sorting_Number.csv") == {"tr": 20, "va": 3, "te": 3}
    assert "x" not in texts


def test_two_file_plan_train_unfiltered_second_file_halved(tmp_path):
    # train: one part, no frequency filter (C with 1 sentence kept); test: A 5, B 5 → 50/50 → va 5, te 5.
    train = write(tmp_path, "xx_t-ud-train.conllu", labelled("w", "Number=Sing", 4, "a"),
                  labelled("w", "Number=Plur", 3, "b"), labelled("w", "Number=Dual", 1, "c"))
    test = write(tmp_path, "xx_t-ud-test.conllu", labelled("w", "Number=Sing", 5, "d"),
                 labelled("w", "Number=Plur", 5, "e"))
    UDConverter(official=True).convert([tmp_path], tmp_path / "out")
    out = tmp_path / "out" / "xx_t_no_sorting_Number.csv"
    assert parts(out) == {"tr": 8, "va": 5, "te": 5}
    assert [r[1] for r in rows(out) if r[0] == "tr"] == ["Sing"] * 4 + ["Plur"] * 3 + ["Dual"]
    assert [b.files for b in find_treebanks([tmp_path])] == [[train.resolve(), test.resolve()]]


def test_three_file_plan_and_category_dropped_when_one_file_cannot_be_split(tmp_path):
    # Number: every file has two classes → kept as is (1.0 each). Case: dev has one class → whole category dropped.
    def block(p):
        return (labelled("w", "Number=Sing|Case=Nom", 3, p + "a"), labelled("v", "Number=Plur|Case=Acc", 2, p + "b"))

    write(tmp_path, "xx_t-ud-train.conllu", *block("t"))
    write(tmp_path, "xx_t-ud-dev.conllu", labelled("w", "Number=Sing|Case=Nom", 2, "da"),
          labelled("v", "Number=Plur|Case=Nom", 1, "db"))
    write(tmp_path, "xx_t-ud-test.conllu", *block("s"))
    manifest = UDConverter(official=True).convert([tmp_path], tmp_path / "out")
    assert parts(tmp_path / "out" / "xx_t_no_sorting_Number.csv") == {"tr": 5, "va": 3, "te": 5}
    assert not (tmp_path / "out" / "xx_t_no_sorting_Case.csv").exists()
    assert manifest["dropped"] == [{"task": "xx_t_no_sorting_Case", "reason": "xx_t-ud-dev.conllu: has only one class"}]


def test_by_deprel_compares_the_full_deprel(tmp_path):
    # the group is named after the base relation 'nsubj', but words labelled 'nsubj:pass' never match it
    body = (labelled("w", "Number=Sing", 13, "a", deprel="nsubj:pass")
            + labelled("w", "Number=Plur", 12, "b", deprel="nsubj:pass"))
    path = write(tmp_path, "xx_t-ud-test.conllu", body)
    tasks, manifest = UDConverter(official=True, sorting="by_deprel").tasks([path])
    assert tasks == []
    assert manifest["dropped"] == [{"task": "xx_t_nsubj_Number", "reason": "xx_t-ud-test.conllu: no examples in "
                                    "this file"}]


def test_more_than_three_files_is_an_error(tmp_path):
    for name in ("train-a", "train-b", "dev", "test"):
        write(tmp_path, f"xx_t-ud-{name}.conllu", labelled("w", "Number=Sing", 1, name))
    with pytest.raises(ValueError, match="at most 3 files"):
        UDConverter(official=True).tasks([tmp_path])


def test_hindi_pud_split_sizes_match_the_original():
    # Computed with an independent script that follows §3.1 with conllu.parse + sklearn (files byte-identical).
    from importlib import resources

    path = resources.files("interpeval") / "data" / "ud" / "UD_Hindi-PUD" / "hi_pud-ud-test.conllu"
    tasks, manifest = UDConverter(official=True).tasks([str(path)])
    sizes = {t.name: tuple(t.counts().values()) for t in tasks}
    assert sizes == {
        "hi_pud_no_sorting_Animacy": (799, 100, 100), "hi_pud_no_sorting_Aspect": (799, 100, 100),
        "hi_pud_no_sorting_Case": (790, 100, 99), "hi_pud_no_sorting_Definite": (283, 36, 35),
        "hi_pud_no_sorting_Gender": (798, 100, 100), "hi_pud_no_sorting_Gender[psor]": (177, 23, 22),
        "hi_pud_no_sorting_Number": (800, 100, 100), "hi_pud_no_sorting_Number[psor]": (194, 25, 24),
        "hi_pud_no_sorting_Person": (793, 100, 99), "hi_pud_no_sorting_Tense": (796, 100, 99)}
    assert {d["task"].rsplit("_", 1)[1] for d in manifest["dropped"]} == {
        "Foreign", "Mood", "NumType", "Polarity", "Polite", "PronType", "VerbForm"}

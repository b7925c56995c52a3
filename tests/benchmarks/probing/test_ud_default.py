"""The default mode: each documented difference from the original, one test each."""

import csv

from conllu_cases import labelled, sentence, write
from test_ud_official import DFS_VS_DEPTH

from interpeval.benchmarks.probing.ud import UDConverter, extract_file


def rows(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle, delimiter="\t"))


def test_label_comes_from_the_word_closest_to_the_root(tmp_path):
    path = write(tmp_path, "xx_t-ud-test.conllu", DFS_VS_DEPTH)
    extract = extract_file((str(path), False, None, None, None, False))
    assert [label for _, label, _, _ in extract.records[("no_sorting", "Number")]] == ["Sing"]  # official: Plur


def test_one_file_split_names_parts_correctly_and_drops_rare_labels(tmp_path):
    # per label floor(n·0.1) rows go to va and to te: Sing 13 → 1/1/11, Plur 12 → 1/1/10; Dual has 2 training
    # sentences < min_count 3 → dropped (and counted).
    path = write(tmp_path, "xx_t-ud-test.conllu", labelled("w", "Number=Sing", 13, "a"),
                 labelled("w", "Number=Plur", 12, "b"), labelled("w", "Number=Dual", 2, "c"))
    manifest = UDConverter().convert([path], tmp_path / "out")
    (task,) = manifest["tasks"]
    assert task["counts"] == {"tr": 21, "va": 2, "te": 2}
    assert task["dropped"] == {"tr_rare_or_unseen_label": 2}


def test_ud_splits_are_kept_and_duplicates_go_to_the_test_side(tmp_path):
    train = labelled("w", "Number=Sing", 5, "a") + labelled("w", "Number=Plur", 5, "b")
    dev = labelled("w", "Number=Sing", 3, "c") + labelled("w", "Number=Plur", 3, "d")
    test = labelled("w", "Number=Sing", 3, "e") + labelled("w", "Number=Plur", 3, "f") + labelled(
        "w", "Number=Sing", 1, "a")  # "a0 w" is also in train
    for name, body in (("train", train), ("dev", dev), ("test", test)):
        write(tmp_path, f"xx_t-ud-{name}.conllu", body)
    (task,), _ = UDConverter().tasks([tmp_path])
    by_part = {p: [text for part, _, text in task.rows if part == p] for p in ("tr", "va", "te")}
    assert sorted(by_part["te"]) == sorted([f"e{i} w" for i in range(3)] + [f"f{i} w" for i in range(3)] + ["a0 w"])
    assert sorted(by_part["va"]) == sorted([f"c{i} w" for i in range(3)] + [f"d{i} w" for i in range(3)])
    assert "a0 w" not in by_part["tr"] and len(by_part["tr"]) == 9
    assert task.dropped == {"tr_duplicate_sentence": 1}


def test_dev_and_test_only_carves_va_out_of_dev(tmp_path):
    write(tmp_path, "xx_t-ud-dev.conllu", labelled("w", "Number=Sing", 10, "a"), labelled("w", "Number=Plur", 10, "b"))
    write(tmp_path, "xx_t-ud-test.conllu", labelled("w", "Number=Sing", 2, "c"), labelled("w", "Number=Plur", 2, "d"))
    (task,), _ = UDConverter().tasks([tmp_path])
    assert task.counts() == {"tr": 18, "va": 2, "te": 4}  # floor(10·0.1) = 1 per label into va


def test_text_is_the_treebank_text_or_rebuilt_from_words(tmp_path):
    body = labelled("w", "Number=Sing", 13, "a") + labelled("w", "Number=Plur", 12, "b")
    odd = sentence("Don't stop.", [("Do", "AUX", "_", 3, "aux"), ("n't", "PART", "_", 3, "advmod"),
                                   ("stop", "VERB", "Number=Sing", 0, "root"), (".", "PUNCT", "_", 3, "punct")])
    bare = sentence(None, [("x", "NOUN", "Number=Plur", 2, "nsubj"), ("y", "VERB", "_", 0, "root")])
    (task,), _ = UDConverter().tasks([write(tmp_path, "xx_t-ud-test.conllu", body, odd, bare)])
    texts = {text for _, _, text in task.rows}
    assert "Don't stop." in texts and "x y" in texts and len(texts) == 27


def test_deprel_groups_and_filters_use_the_base_relation(tmp_path):
    body = (labelled("w", "Number=Sing", 13, "a", deprel="nsubj:pass")
            + labelled("w", "Number=Plur", 12, "b", deprel="nsubj"))
    path = write(tmp_path, "xx_t-ud-test.conllu", body)
    (task,), _ = UDConverter(sorting="by_deprel").tasks([path])
    assert task.name == "xx_t_nsubj_Number" and len(task.rows) == 25
    (only,), _ = UDConverter(deprel="nsubj").tasks([path])
    assert len(only.rows) == 25
    assert UDConverter(deprel="nsubj:pass").tasks([path])[0] == []  # a full deprel matches exactly: one class left


def test_group_label_comes_from_the_highest_word_of_that_group(tmp_path):
    # the root verb carries Number=Sing; the noun below it Number=Plur. Group NOUN must use the noun.
    def two(prefix, verb, noun, n):
        return "".join(sentence(f"{prefix}{i} n", [(f"{prefix}{i}", "VERB", f"Number={verb}", 0, "root"),
                                                   ("n", "NOUN", f"Number={noun}", 1, "obj")]) for i in range(n))

    path = write(tmp_path, "xx_t-ud-test.conllu", two("a", "Sing", "Plur", 13), two("b", "Plur", "Sing", 12))
    tasks, _ = UDConverter(sorting="by_pos").tasks([path])
    noun = next(t for t in tasks if t.name == "xx_t_NOUN_Number")
    assert {(text[0], label) for _, label, text in noun.rows} == {("a", "Plur"), ("b", "Sing")}
    official, _ = UDConverter(official=True, sorting="by_pos").tasks([path])
    assert [t.name for t in official] == ["xx_t_VERB_Number"]  # the original only sees the highest word overall


def test_both_constraints_must_hold(tmp_path):
    body = labelled("w", "Number=Sing", 13, "a", upos="NOUN", deprel="obj") + labelled(
        "w", "Number=Plur", 12, "b", upos="PRON", deprel="nsubj")
    path = write(tmp_path, "xx_t-ud-test.conllu", body)
    assert UDConverter(upos="NOUN", deprel="nsubj").tasks([path])[0] == []
    (task,), _ = UDConverter(official=True, upos="NOUN", deprel="nsubj").tasks([path])  # QUIRK: either one
    assert len(task.rows) == 25


def test_release_tree_is_converted_in_parallel_with_identical_output(tmp_path):
    from importlib import resources

    root = resources.files("interpeval") / "data" / "ud"
    one, m1 = UDConverter(workers=1).tasks([str(root)])
    two, m2 = UDConverter(workers=2).tasks([str(root)])
    assert [t.rows for t in one] == [t.rows for t in two]
    assert [b["language"] for b in m1["treebanks"]] == ["en_ewt", "hi_pud", "ru_taiga"]  # Turkish-IMST (NC) is a test fixture
    assert all(b["skipped_sentences"] == 0 for b in m1["treebanks"])

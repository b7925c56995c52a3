import pytest
from conllu_cases import sentence, write

from interpeval.benchmarks.conllu import ReadStats, read_conllu
from interpeval.errors import DataError

GOOD = sentence("a b", [("a", "NOUN", "Number=Sing|Gender[psor]=Fem", 2, "nsubj"), ("b", "VERB", "_", 0, "root")])


@pytest.mark.parametrize(("line", "message"), [
    ("1\ta\ta\tNOUN\t_\t_\t0", "expected 10 tab-separated columns, found 7"),
    ("x\ta\ta\tNOUN\t_\t_\t0\troot\t_\t_", "bad ID 'x'"),
    ("1\ta\ta\tNOUN\t_\tNumber\t0\troot\t_\t_", "broken FEATS 'Number'"),
    ("1\ta\ta\tNOUN\t_\tNumber=\t0\troot\t_\t_", "broken FEATS"),
    ("1\ta\ta\tNOUN\t_\t_\tx\troot\t_\t_", "bad HEAD 'x'"),
    ("2\ta\ta\tNOUN\t_\t_\t0\troot\t_\t_", "word ID 2 out of sequence"),
])
def test_malformed_lines_name_file_and_line(tmp_path, line, message):
    path = write(tmp_path, "bad.conllu", GOOD, "# text = a\n" + line + "\n\n")
    with pytest.raises(DataError, match=message) as err:
        list(read_conllu(path))
    assert f"{path}:line 6" in str(err.value)


def test_structural_errors(tmp_path):
    no_root = write(tmp_path, "r.conllu", "1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t1\tdep\t_\t_\n\n")
    with pytest.raises(DataError, match="no root"):
        list(read_conllu(no_root))
    cycle = write(tmp_path, "c.conllu", "1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n2\tb\tb\tX\t_\t_\t3\tdep\t_\t_\n"
                  "3\tc\tc\tX\t_\t_\t2\tdep\t_\t_\n\n")
    with pytest.raises(DataError, match="cycle"):
        list(read_conllu(cycle))


def test_skip_bad_counts_instead_of_dropping_silently(tmp_path):
    path = write(tmp_path, "b.conllu", GOOD, "# text = a\n1\ta\ta\tNOUN\t_\tBroken\t0\troot\t_\t_\n\n", GOOD)
    stats = ReadStats()
    sentences = list(read_conllu(path, skip_bad=True, stats=stats))
    assert len(sentences) == 2 and stats.sentences == 2 and stats.skipped == 1
    assert "line 6" in stats.reasons[0] and "broken FEATS" in stats.reasons[0]


def test_fields_layered_features_and_multiword_tokens(tmp_path):
    text = ("# text = del mar\n1-2\tdel\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_\n"
            "2\tel\tel\tDET\t_\tDefinite=Def\t3\tdet\t_\tSpaceAfter=No\n3\tmar\tmar\tNOUN\t_\tGender[psor]=Masc\t0\troot\t_\t_\n"
            "3.1\tx\tx\tNOUN\t_\tCase=Nom\t_\t_\t_\t_\n\n")
    (sent,) = read_conllu(write(tmp_path, "m.conllu", text))
    assert [w[1] for w in sent.words] == ["de", "el", "mar"]
    assert sent.words[2][3] == {"Gender[psor]": "Masc"}
    assert sent.extra == [("_", {}, "_"), ("NOUN", {"Case": "Nom"}, "_")]
    assert sent.metadata == {"text": "del mar"}
    sent.metadata.clear()
    assert sent.surface() == "de elmar"  # rebuilt with SpaceAfter=No


def test_preorder_and_depth_orders():
    # root b(2) has dependents a(1) and d(4); a has c(3): pre-order 2,1,3,4; by depth 2,1,4,3
    from interpeval.benchmarks.conllu import Sentence

    words = [(1, "a", "X", {}, 2, "dep", True), (2, "b", "X", {}, 0, "root", True),
             (3, "c", "X", {}, 1, "dep", True), (4, "d", "X", {}, 2, "dep", True)]
    sent = Sentence(1, {}, words, [[2], [3], [1, 4], [], []], [0, 2, 1, 3, 2])
    assert sent.preorder() == [2, 1, 3, 4]
    assert sent.by_depth() == [2, 1, 4, 3]

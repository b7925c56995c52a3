import operator
from pathlib import Path

import pytest

from interpeval.benchmarks.base import Benchmark, Record, RunKey
from interpeval.exec import LocalExecutor, RayExecutor, get_executor


def test_local_inline_and_pool_give_the_same_results():
    items = list(range(-5, 6))
    assert LocalExecutor().map(abs, items) == [abs(i) for i in items]
    with LocalExecutor(workers=2) as pool:
        pairs = dict(pool.imap_unordered(abs, items))
    assert pairs == {i: abs(item) for i, item in enumerate(items)}


def test_errors_in_units_propagate():
    with pytest.raises(TypeError):
        LocalExecutor().map(operator.neg, ["x"])


def test_get_executor_by_name():
    assert isinstance(get_executor("local", 3), LocalExecutor) and get_executor("local", 3).workers == 3
    ray = get_executor("ray", 2, gpus_per_worker=0.5)
    assert isinstance(ray, RayExecutor) and (ray.workers, ray.gpus_per_worker) == (2, 0.5)
    with pytest.raises(ValueError, match="unknown executor"):
        get_executor("dask")


@pytest.mark.slow
def test_ray_executor_on_a_local_cluster(tmp_path, ray_cluster):
    executor = RayExecutor()
    assert executor.map(abs, [-3, 4, -5]) == [3, 4, 5]
    assert sorted(executor.imap_unordered(abs, [-1, -2])) == [(0, 1), (1, 2)]
    executor.close()
    assert ray_cluster.is_initialized()  # a cluster it joined is left running
    _grid_on_ray(tmp_path)


def _grid_on_ray(tmp_path):
    """The probing grid's units run as Ray tasks and give the same numbers as the local executor."""

    from interpeval.benchmarks.probing.grid import ProbingGrid, results_frame
    from interpeval.benchmarks.probing.ud import UDConverter

    UDConverter().convert([str(Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "ud" / "UD_Turkish-IMST")], tmp_path / "t")
    task = tmp_path / "t" / "tr_imst_no_sorting_Number.csv"
    frames = []
    for name in ("ray", "local"):
        summary = ProbingGrid([task], model="tiny-encoder", aggregations=("avg",), cache_dir=tmp_path / "c",
                              store=tmp_path / f"{name}.sqlite", executor=name, probe_params={"epochs": 2},
                              threads=1).run()
        assert summary["experiments"] == 2
        frames.append(results_frame(tmp_path / f"{name}.sqlite").sort_values("layer")["accuracy"].tolist())
    assert frames[0] == frames[1]


class _Squares(Benchmark):
    """Squares numbers: the smallest benchmark."""

    def __init__(self, n, chunk):
        self.n, self.chunk = n, chunk

    def key(self):
        return RunKey(type(self).__name__, {"n": self.n, "chunk": self.chunk})

    def instances(self):
        return list(range(self.n))

    def instance_id(self, item):
        return str(item)

    def compute(self, items):
        return [Record({"square": i * i}) for i in items]


class _LocalSquares(_Squares):
    distributable = False


def test_using_sends_every_resume_in_the_block_to_the_executor(tmp_path):
    from interpeval.benchmarks.base import resume
    from interpeval.exec import Executor, current_executor, using
    from interpeval.store import Store

    executor = Executor()
    with Store(tmp_path / "s.sqlite") as store:
        with using(executor):
            assert current_executor() is executor
            out = resume(_Squares(5, 2), store)
            assert executor.chunks_sent == 3  # [0, 1], [2, 3], [4]
            resume(_LocalSquares(5, 2), store)  # in this process, not sent
            assert executor.chunks_sent == 3
        assert current_executor() is not executor
    assert [o["square"] for o in out.outputs] == [0, 1, 4, 9, 16]


@pytest.mark.slow
def test_a_loaded_model_computes_exactly_as_its_pickled_copy():
    """What a Ray worker receives is the unpickled model: its tensors are newly allocated (aligned), while weights
    loaded from a file view the file at any offset — the matmul kernels then differ in the last bits unless the
    loader gives every tensor memory of its own."""
    import pickle

    from interpeval.explain import build
    from interpeval.models import Target, load

    model = load("minilm-quackie-cls", device="cpu")
    copy = pickle.loads(pickle.dumps(model))
    question = "Which river runs through the city?"
    context = " ".join(["Paris is a big city with many people and a long history of art."] * 30)
    saliency = build("saliency", {}, 0)
    scores = [saliency.explain(m, [question], Target("class_prob", 1), pairs=[context])[0].scores
              for m in (model, copy)]
    assert (scores[0] == scores[1]).all()

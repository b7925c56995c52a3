"""interpeval vs ferret 0.4.2: explain + evaluate the same 20 SST-2 sentences with the same model, side by side.

ferret runs in its own virtual environment, made by this script under ``.cache/ferret-venv`` (or ``--venv``;
``--setup`` only makes it: installing ferret takes minutes) with ferret's pins (transformers < 5, numpy < 2,
pyarrow < 16) and this environment's own torch, linked in, so both sides run the same torch build. The model is
the zoo's ``minilm-sst2`` (MiniLM + SST-2 head), saved once as a plain Hugging Face checkpoint for ferret. Both sides explain
each sentence for its predicted class with

* Gradient — ferret ``GradientExplainer(multiply_by_inputs=False)`` (Captum ``Saliency``, ``abs=True``) vs ours
  ``saliency``;
* IG-50 — ferret ``IntegratedGradientExplainer`` ([CLS] [PAD] … [SEP] baseline) vs ours
  ``integrated_gradients:n_steps=50,baseline=pad``;
* LIME — ferret's default n² samples over tokens masked with [MASK] (n = tokens with [CLS]/[SEP]) vs ours
  ``lime:unit=token,removal=mask,n_samples=n²``;
* SHAP — ferret's ``Partition SHAP`` (shap's text masker) with ``max_evals=n²`` vs ours
  ``kernel_shap:unit=token,removal=mask,n_samples=n²``: the same budget, not the same algorithm (timed; the values
  of each side's own explanations are printed, not compared);

and evaluates every explanation with AOPC comprehensiveness, AOPC sufficiency and tau-LOO (ferret's defaults:
thresholds 10..100 %, only positive scores, [CLS]/[SEP] left out, tokens removed and the rest decoded). Printed:
per-method explain time, evaluation time, totals and ratios (ferret / interpeval), and whether the metric values
agree: interpeval's metrics are applied to ferret's own explanations and compared with ferret's values. Both sides
count the model rows each method used (a forward hook on the encoder) next to the method's budget (the pass bound). The two
sides alternate sentence by sentence (ferret waits in its own process), so both see the same load on a shared
machine; one warm-up sentence per side is left out of the timings. Last, ours explains all sentences in one call
with the fixed-budget methods (Gradient, IG-50), batched as ``interpeval evaluate`` runs a file, next to ferret's
per-sentence sum (ferret's explainers take one text per call); IG-50 is left out of it (padding to the longest
sentence made it slower batched than per sentence: 21.6 s against 13.7 s in the last quiet run).

The bound of each method: the model rows ours ran, replayed right after each sentence as plain batched passes of
the same inputs through the Hugging Face model (forward under ``inference_mode``; for Gradient and IG-50 forward
plus the backward pass to the embeddings block's output), with nothing else: no sampling, no surrogate, no
tokenisation, no Captum. To keep the run short, every ``--bound-every``-th batch of a method is replayed (every
batch of Gradient, whose batches are one row) and the time is scaled by the tokens (rows × length) of all its
batches over those replayed. Printed per method: ferret's seconds, ours, the bound, ours / bound (what is left
to gain without scoring fewer rows) and ferret / bound (the ratio a method scoring our rows at our per-row cost
cannot exceed).

    nice -n 10 python bench/vs_ferret.py [--n 20] [--bound-every 16]
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time
import warnings
from importlib import metadata, resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".cache" / "ferret-venv"
WORK = ROOT / ".cache" / "ferret-bench"
METHODS = ("Gradient", "IG-50", "LIME", "SHAP")
METRICS = (("aopc_compr", "ferret_aopc_compr"), ("aopc_suff", "ferret_aopc_suff"), ("taucorr_loo", "ferret_taucorr_loo"))

FERRET_SIDE = r'''
import json, sys, time, warnings
warnings.filterwarnings("ignore")
import numpy as np, torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer
from ferret import Benchmark
from ferret.benchmark import lp_normalize
from ferret.explainers.gradient import GradientExplainer, IntegratedGradientExplainer
from ferret.explainers.lime import LIMEExplainer
from ferret.explainers.shap import SHAPExplainer
from ferret.evaluators.faithfulness_measures import (AOPC_Comprehensiveness_Evaluation, AOPC_Sufficiency_Evaluation,
                                                     TauLOO_Evaluation)

model_dir = sys.argv[1]
model = AutoModelForSequenceClassification.from_pretrained(model_dir).eval()
tokenizer = AutoTokenizer.from_pretrained(model_dir)
explainers = {"Gradient": GradientExplainer(model, tokenizer, multiply_by_inputs=False),
              "IG-50": IntegratedGradientExplainer(model, tokenizer, multiply_by_inputs=True),
              "LIME": LIMEExplainer(model, tokenizer), "SHAP": SHAPExplainer(model, tokenizer)}
call_args = {"IG-50": {"call_args": {"n_steps": 50}}}
evaluators = [AOPC_Comprehensiveness_Evaluation(model, tokenizer), AOPC_Sufficiency_Evaluation(model, tokenizer),
              TauLOO_Evaluation(model, tokenizer)]
bench = Benchmark(model, tokenizer, explainers=list(explainers.values()), evaluators=evaluators)
phase = ["evaluate"]
def count_rows(module, args, kwargs):  # rows through the encoder per phase, whatever calls the model
    x = args[0] if args else kwargs["hidden_states"]
    row["rows"][phase[0]] = row["rows"].get(phase[0], 0) + int(x.shape[0])
model.base_model.encoder.register_forward_pre_hook(count_rows, with_kwargs=True)
print("READY", flush=True)
clock = lambda: (time.perf_counter(), time.process_time())
for line in sys.stdin:  # one sentence per line (JSON string); one result per line, prefixed RESULT
    text = json.loads(line)
    row = {"text": text, "timings": {}, "scores": {}, "tokens": {}, "values": {}, "rows": {}}
    phase[0] = "evaluate"
    def add(key, started):
        now = clock()
        for name, delta in ((key, now[0] - started[0]), ("cpu:" + key, now[1] - started[1])):
            row["timings"][name] = row["timings"].get(name, 0.0) + delta
        return now
    started = clock()
    with torch.no_grad():
        target = row["target"] = int(model(**tokenizer(text, return_tensors="pt")).logits[0].argmax())
    add("evaluate", started)
    n2 = len(tokenizer(text)["input_ids"]) ** 2  # LIME's default budget; SHAP gets the same one
    call_args["SHAP"] = {"call_args": {"max_evals": n2}}
    for name, explainer in explainers.items():
        started = clock()
        phase[0] = "explain/" + name
        explanation = explainer(text, target=target, **call_args.get(name, {}))
        (explanation,) = lp_normalize([explanation])
        started = add("explain/" + name, started)
        phase[0] = "evaluate/" + name
        (evaluation,) = bench.evaluate_explanations([explanation], target=target, show_progress=False)
        add("evaluate/" + name, started)
        add("evaluate", started)
        row["scores"][name] = [float(s) for s in explanation.scores]
        row["tokens"][name] = list(explanation.tokens)
        row["values"][name] = {e.name: float(e.score) for e in evaluation.evaluation_scores}
    print("RESULT " + json.dumps(row), flush=True)
'''


def ensure_venv(venv: Path = VENV) -> Path:
    """The ferret virtual environment's python, created and installed on first use.

    Its torch is this environment's own (the package linked into the venv, its dependencies installed), so both
    sides run the same torch build and kernels, and no second torch is downloaded; ferret and its pins
    (transformers < 5, numpy < 2, pyarrow < 16) come from PyPI.
    """
    import torch

    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import ferret, transformers, numpy; print(transformers.__version__)"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    print(f"creating {venv} (this environment's torch {torch.__version__}, then ferret-xai 0.4.2)", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = Path(torch.__file__).resolve().parents[1]
    for entry in ours.iterdir():
        if entry.name.split("-")[0] in ("torch", "torchgen", "functorch"):
            (site / entry.name).symlink_to(entry)
    requires = metadata.requires("torch") or []
    pip = [str(python), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, *(r for r in requires if "extra ==" not in r)], check=True)
    subprocess.run([*pip, "ferret-xai==0.4.2", "transformers<5", "numpy<2", "pyarrow<16"], check=True)
    return python


def sentences(n: int) -> list[str]:
    path = resources.files("interpeval") / "data" / "sentences" / "sst2-dev-20.tsv"
    with path.open(encoding="utf-8") as f:
        return [row["sentence"].strip() for row in csv.DictReader(f, delimiter="\t")][:n]


class FerretSide:
    """The ferret process in its venv: the model saved as a plain HF checkpoint, sentences sent one at a time."""

    def __init__(self, python: Path, model) -> None:
        model_dir = WORK / "minilm-sst2"
        if not (model_dir / "config.json").exists():
            model.hf.save_pretrained(model_dir)
            model.tokenizer.save_pretrained(model_dir)
        (WORK / "ferret_side.py").write_text(FERRET_SIDE)
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
        self.proc = subprocess.Popen([str(python), str(WORK / "ferret_side.py"), str(model_dir)], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._read("READY")

    def _read(self, prefix: str) -> str:
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line[len(prefix):].strip()
        raise RuntimeError(f"the ferret side stopped (exit code {self.proc.wait()})")

    def explain_and_evaluate(self, text: str) -> dict:
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        return json.loads(self._read("RESULT "))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


#: our explainers' registry names → the bench's method labels; ``ROWS`` counts model rows per phase, as on ferret's
#: side, and keeps the inputs of the batches to replay for the bound (``calls``; ``tokens``: rows × length of all
#: batches, ``replayed``: of those kept; ``seen``: batches per phase so far, over all sentences)
LABELS = {"saliency": "Gradient", "integrated_gradients": "IG-50", "lime": "LIME", "kernel_shap": "SHAP"}
ROWS: dict = {"phase": "evaluate", "rows": {}, "calls": [], "pending": None, "seen": {}, "every": 16}
#: the phases whose bound is a forward and a backward pass (the gradient methods)
GRADIENT_PHASES = ("explain/Gradient", "explain/IG-50")
REPLAY = "replay"


def count_model_rows(model) -> None:
    """Count the rows that go through the encoder (a pass that stops at the embeddings is no model pass), by phase
    (``explain/<method>`` while an explainer runs, else ``evaluate``), as the ferret side does; keep the model
    inputs of every ``ROWS["every"]``-th batch of a phase (every Gradient batch) for :func:`replay_bound`."""
    import torch

    from interpeval.explain.base import Explainer

    def inputs(module, args, kwargs):
        ROWS["pending"] = {k: v for k, v in kwargs.items() if isinstance(v, torch.Tensor)}

    def count(module, args, kwargs):
        phase = ROWS["phase"]
        if phase == REPLAY:
            return
        x = args[0] if args else kwargs["hidden_states"]
        ROWS["rows"][phase] = ROWS["rows"].get(phase, 0) + int(x.shape[0])
        seen = ROWS["seen"][phase] = ROWS["seen"].get(phase, -1) + 1
        tokens = int(x.shape[0] * x.shape[1])
        ROWS["tokens"][phase] = ROWS["tokens"].get(phase, 0) + tokens
        if phase == "explain/Gradient" or seen % ROWS["every"] == 0:
            ROWS["calls"].append((phase, {k: v.detach().clone() for k, v in ROWS["pending"].items()}, tokens))

    model.hf.register_forward_pre_hook(inputs, with_kwargs=True)
    model.hf.base_model.encoder.register_forward_pre_hook(count, with_kwargs=True)
    explain = Explainer.explain

    def explain_counted(self, *args, **kwargs):
        ROWS["phase"] = "explain/" + LABELS.get(self.name, self.name)
        try:
            return explain(self, *args, **kwargs)
        finally:
            ROWS["phase"] = "evaluate"

    Explainer.explain = explain_counted


def ours(model, text: str, store) -> dict:
    """interpeval's engine on one sentence (LIME/SHAP sample counts depend on its length, as ferret's)."""
    from interpeval.evaluate import Method, evaluate

    ROWS["rows"], ROWS["tokens"], ROWS["calls"] = {}, {}, []

    n2 = len(model.tokenizer(text)["input_ids"]) ** 2
    methods = [Method("Gradient", "saliency"),
               Method("IG-50", "integrated_gradients", {"n_steps": 50, "baseline": "pad"}),
               Method("LIME", "lime", {"unit": "token", "removal": "mask", "n_samples": n2}),
               Method("SHAP", "kernel_shap", {"unit": "token", "removal": "mask", "n_samples": n2})]
    result = evaluate(model, [text], methods, ["faithfulness"], store=store)
    row = {"timings": result.timings, "passes": result.passes, "requests": result.requests, "rows": ROWS["rows"],
           "n_tokens": len(model.tokenizer(text)["input_ids"]), "values": {r["method"]: {} for r in result.aggregate},
           "tokens": ROWS["tokens"], "bound": replay_bound(model)}
    for r in result.aggregate:
        row["values"][r["method"]][r["metric"]] = r["mean"]
    return row


def replay_bound(model) -> dict[str, float]:
    """The kept batches of this sentence replayed as plain passes of the HF model (forward, and for the gradient
    methods the backward pass to the embeddings block's output): seconds per phase (wall, and ``cpu:``) and the
    tokens replayed (``tokens:``)."""
    import torch

    out: dict[str, float] = {}
    captured: list = []  # the embeddings block's output of the pass being replayed
    handle = model.embedding_layer().register_forward_hook(lambda module, args, output: captured.append(output))
    ROWS["phase"] = REPLAY
    try:
        for phase, inputs, tokens in ROWS["calls"]:
            captured.clear()
            started = (time.perf_counter(), time.process_time())
            if phase in GRADIENT_PHASES:
                logits = model.hf(**inputs).logits
                torch.autograd.grad(logits.softmax(-1)[:, 0].sum(), captured[0])
            else:
                with torch.inference_mode():
                    model.hf(**inputs)
            for key, delta in ((phase, time.perf_counter() - started[0]),
                               (f"cpu:{phase}", time.process_time() - started[1]), (f"tokens:{phase}", tokens)):
                out[key] = out.get(key, 0.0) + delta
    finally:
        handle.remove()
        ROWS["phase"], ROWS["calls"] = "evaluate", []
    return out


#: the methods with a fixed budget, which our engine batches over inputs (LIME and SHAP explain one input per call);
#: IG-50 batched pads every row to the longest sentence, which cost more than it saved (see the docstring)
BATCHED = ("Gradient",)


def ours_batched(model, texts: list[str], store) -> dict:
    """Gradient and IG-50 on all sentences in one ``evaluate`` call, as ``interpeval evaluate`` runs a file: rows of
    similar length share a forward and backward pass (ferret's explainers take one text per call)."""
    from interpeval.evaluate import Method, evaluate

    ROWS["rows"], ROWS["tokens"], ROWS["calls"] = {}, {}, []
    methods = [Method("Gradient", "saliency")]
    result = evaluate(model, texts, methods, ["faithfulness"], store=store, chunk=len(texts))
    ROWS["calls"] = []
    return {"timings": result.timings, "rows": dict(ROWS["rows"])}


def print_batched(f_rows: list[dict], ours_rows: list[dict], batched: dict) -> None:
    """Explain seconds of the fixed-budget methods: ferret per sentence, ours per sentence and ours batched."""

    def total(rows: list[dict], key: str) -> float:
        return sum(r["timings"].get(key, 0.0) for r in rows)

    print(f"\nbatched (ours: the {len(ours_rows)} sentences in one call, measured after the interleaved run; ferret "
          "has no batch call: its per-sentence sum):")
    print(f"{'method':<9} {'ferret s':>9} {'ours/sentence s':>16} {'ours batched s':>15} {'ratio':>6} {'rows':>6}")
    for method in BATCHED:
        fe, oe = total(f_rows, f"explain/{method}"), total(ours_rows, f"explain/{method}")
        be = batched["timings"].get(f"explain/{method}", math.nan)
        print(f"{method:<9} {fe:>9.2f} {oe:>16.2f} {be:>15.2f} {fe / be:>6.2f} "
              f"{batched['rows'].get(f'explain/{method}', 0):>6}")


def ours_on_ferret_explanations(model, ferret_rows: list[dict]) -> list[dict]:
    """interpeval's metrics on ferret's own explanations (its tokens and L1-normalised scores)."""
    import numpy as np

    from interpeval import metrics
    from interpeval.evaluate.passes import SharedPasses, id_decoder
    from interpeval.models import Target

    out = []
    for row in ferret_rows:
        target = Target("class_prob", row["target"])
        ids = model.tokenizer(row["text"])["input_ids"]
        tokens = [str(i) for i in ids[1:-1]]
        values: dict[str, dict[str, float]] = {}
        passes = SharedPasses(model)
        decode = id_decoder(model, row["text"])
        for replay in (False, True):
            fn = (passes.replayer if replay else passes.recorder)(target, decode)
            for method in ("Gradient", "IG-50", "LIME"):
                scores = np.asarray(row["scores"][method], dtype=float)[1:-1]
                evidence = metrics.Evidence(tokens=tokens, scores=scores, score_fn=fn, full_text=row["text"])
                values[method] = {name: float(metrics.get(name).evaluate(evidence)) for _, name in METRICS}
            if not replay:
                passes.run()
        out.append(values)
    return out


def print_times(f_rows: list[dict], ours_rows: list[dict], kind: str, label: str) -> None:
    """Per-method explain seconds, evaluation seconds, totals and ratios (ferret / interpeval)."""

    def total(rows: list[dict], key: str) -> float:
        return sum(r["timings"].get(kind + key, 0.0) for r in rows)

    print(f"\n{label}, {len(f_rows)} sentences:")
    print(f"{'method':<9} {'ferret explain s':>16} {'ours explain s':>14} {'ratio':>6} | {'ferret eval s':>13}")
    for method in METHODS:
        fe, oe = total(f_rows, f"explain/{method}"), total(ours_rows, f"explain/{method}")
        print(f"{method:<9} {fe:>16.2f} {oe:>14.2f} {fe / oe:>6.2f} | {total(f_rows, f'evaluate/{method}'):>13.2f}")
    f_exp = sum(total(f_rows, f"explain/{m}") for m in METHODS)
    o_exp = sum(total(ours_rows, f"explain/{m}") for m in METHODS)
    f_eval, o_eval = total(f_rows, "evaluate"), total(ours_rows, "evaluate")
    print(f"{'all':<9} {f_exp:>16.2f} {o_exp:>14.2f} {f_exp / o_exp:>6.2f} | {f_eval:>13.2f}  ours (shared passes) "
          f"{o_eval:.2f}  ratio {f_eval / o_eval:.2f}")
    print(f"explain + evaluate: ferret {f_exp + f_eval:.1f} s ({(f_exp + f_eval) / len(f_rows):.2f} s/text), "
          f"interpeval {o_exp + o_eval:.1f} s ({(o_exp + o_eval) / len(f_rows):.2f} s/text) -> "
          f"{(f_exp + f_eval) / (o_exp + o_eval):.2f}x; evaluation alone {f_eval / o_eval:.2f}x")


def print_bound(f_rows: list[dict], ours_rows: list[dict], kind: str, label: str) -> None:
    """Per method: ferret's seconds, ours and the bound (our rows as plain batched passes, scaled from the replayed
    batches by tokens), with ours / bound and ferret / bound."""

    def total(rows: list[dict], field: str, key: str) -> float:
        return sum(r[field].get(key, 0.0) for r in rows)

    print(f"\n{label}: each method against its bound (our model rows as plain batched passes of the same inputs; "
          f"every {ROWS['every']}th batch replayed, every Gradient batch, scaled by tokens):")
    print(f"{'method':<9} {'ferret s':>9} {'ours s':>8} {'bound s':>8} {'replayed':>9} | {'ours/bound':>10} "
          f"{'ferret/ours':>11} {'ferret/bound':>12}")
    phases = [(m, f"explain/{m}") for m in METHODS] + [("evaluate", "evaluate")]
    sums = [0.0, 0.0, 0.0, 0.0, 0.0]
    for method, phase in phases:
        fe = total(f_rows, "timings", kind + phase)
        oe = total(ours_rows, "timings", kind + phase)
        replayed = total(ours_rows, "bound", f"tokens:{phase}")
        all_tokens = total(ours_rows, "tokens", phase)
        bound = total(ours_rows, "bound", kind + phase) * all_tokens / replayed if replayed else math.nan
        sums = [a + b for a, b in zip(sums, (fe, oe, bound, replayed, all_tokens), strict=True)]
        print(f"{method:<9} {fe:>9.2f} {oe:>8.2f} {bound:>8.2f} {replayed / all_tokens:>8.0%} | {oe / bound:>10.2f} "
              f"{fe / oe:>11.2f} {fe / bound:>12.2f}")
    fe, oe, bound, replayed, all_tokens = sums
    print(f"{'all':<9} {fe:>9.2f} {oe:>8.2f} {bound:>8.2f} {replayed / all_tokens:>8.0%} | {oe / bound:>10.2f} "
          f"{fe / oe:>11.2f} {fe / bound:>12.2f}   (ferret/bound: the most explain + evaluate can gain on ferret "
          "without scoring fewer rows or making a row cheaper)")


def print_passes(f_rows: list[dict], ours_rows: list[dict]) -> None:
    """Model rows (one input through the network; with a backward pass for Gradient and IG) per method on each side,
    next to the bound each method's budget sets: Gradient 1 per text, IG 50, LIME and SHAP n² (n tokens with
    [CLS]/[SEP], the budget both sides are given; fewer when identical perturbations are scored once). Evaluation:
    ferret scores every text its metrics ask for; ours scores each distinct text once (the bound: the requests)."""

    def rows(side: list[dict], key: str) -> int:
        return sum(r["rows"].get(key, 0) for r in side)

    n2 = sum(r["n_tokens"] ** 2 for r in ours_rows)
    bound = {"Gradient": len(ours_rows), "IG-50": 50 * len(ours_rows), "LIME": n2, "SHAP": n2}
    print(f"\nmodel rows over {len(ours_rows)} sentences (ferret / interpeval / the method's budget):")
    print(f"{'method':<9} {'ferret':>9} {'ours':>9} {'budget':>9} | {'ferret eval':>11}")
    for method in METHODS:
        print(f"{method:<9} {rows(f_rows, f'explain/{method}'):>9} {rows(ours_rows, f'explain/{method}'):>9} "
              f"{bound[method]:>9} | {rows(f_rows, f'evaluate/{method}'):>11}")
    f_eval = rows(f_rows, "evaluate") + sum(rows(f_rows, f"evaluate/{m}") for m in METHODS)
    print(f"evaluation: ferret {f_eval} rows; ours {rows(ours_rows, 'evaluate')} rows "
          f"({sum(r['requests'] for r in ours_rows)} texts requested by the metrics, "
          f"{sum(r['passes'] for r in ours_rows)} distinct ones scored, plus the unperturbed inputs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="sentences (of the 20 vendored SST-2 dev sentences)")
    parser.add_argument("--bound-every", type=int, default=16, help="replay every K-th batch of each method for its "
                                                                   "bound (1: every batch; a longer run)")
    parser.add_argument("--venv", type=Path, default=VENV, help="ferret's virtual environment (made when missing)")
    parser.add_argument("--setup", action="store_true", help="only make ferret's environment, then stop")
    args = parser.parse_args()
    ROWS["every"] = max(1, args.bound_every)
    warnings.filterwarnings("ignore")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    from interpeval.models import load
    from interpeval.store import Store

    WORK.mkdir(parents=True, exist_ok=True)
    python = ensure_venv(args.venv)
    if args.setup:
        print(f"ferret's environment is ready: {python}")
        return
    model = load("minilm-sst2", device="cpu")
    count_model_rows(model)
    texts = sentences(args.n)
    print(f"model minilm-sst2 on cpu, {len(texts)} SST-2 dev sentences, torch threads {torch.get_num_threads()}",
          flush=True)
    store_path = WORK / f"ours-{os.getpid()}.sqlite"
    side = FerretSide(python, model)
    f_rows, ours_rows = [], []
    try:
        with Store(store_path) as store:
            side.explain_and_evaluate("a warm-up sentence .")  # first-call costs (imports, allocations) on
            ours(model, "a warm-up sentence .", store)  # both sides are left out of the timings
            for i, text in enumerate(texts, 1):  # interleaved, so both sides see the same load on a shared machine
                f_rows.append(side.explain_and_evaluate(text))
                ours_rows.append(ours(model, text, store))
                print(f"{i}/{len(texts)}", flush=True)
            batched = ours_batched(model, texts, store)
    finally:
        side.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store_path}{suffix}").unlink(missing_ok=True)
    for kind, label in (("", "wall-clock"), ("cpu:", "CPU time of each process (both sides: torch threads "
                                               f"{torch.get_num_threads()})")):
        print_times(f_rows, ours_rows, kind, label)
    print_passes(f_rows, ours_rows)
    for kind, label in (("", "wall-clock"), ("cpu:", "CPU time")):
        print_bound(f_rows, ours_rows, kind, label)
    print_batched(f_rows, ours_rows, batched)

    print("\nmetric agreement (interpeval's metrics on ferret's explanations vs ferret's values):")
    ours_on_f = ours_on_ferret_explanations(model, f_rows)
    for method in ("Gradient", "IG-50", "LIME"):
        for f_name, our_name in METRICS:
            diffs = []
            for frow, orow in zip(f_rows, ours_on_f, strict=True):
                a, b = frow["values"][method].get(f_name, math.nan), orow[method][our_name]
                diffs.append(0.0 if (math.isnan(a) and math.isnan(b)) else abs(a - b))
            worst = max(diffs)
            print(f"  {method:<9} {f_name:<12} max |diff| {worst:.2e} over {len(diffs)} texts -> "
                  f"{'agree' if worst < 1e-4 else 'DIFFER'}")
    print("\nmean metric values of each side's own explanations (different explainer implementations):")
    for method in METHODS:
        for f_name, our_name in METRICS:
            fm = sum(r["values"][method].get(f_name, math.nan) for r in f_rows) / len(f_rows)
            om = sum(r["values"][method].get(our_name, math.nan) for r in ours_rows) / len(ours_rows)
            print(f"  {method:<9} {f_name:<12} ferret {fm:+.3f}  interpeval {om:+.3f}")


if __name__ == "__main__":
    main()

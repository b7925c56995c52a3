"""``interpeval evaluate``: explain inputs with several methods and score every explanation (ferret's three lines).

    from interpeval.evaluate import evaluate
    result = evaluate("minilm-sst2", ["a charming journey"], ["gradient", "integrated_gradients:n_steps=50"])
    print(result.tables()[0].to_markdown())
"""

from interpeval.evaluate.engine import PRESETS, Evaluation, Input, Method, Result, evaluate, parse_method

__all__ = ["PRESETS", "Evaluation", "Input", "Method", "Result", "evaluate", "parse_method"]

"""The pretrained-LM rationale benchmark (Shen et al. 2022, arXiv 2207.13948), built from real public sources.

Masked-word instances in five dimensions (grammar, semantics, knowledge, reasoning, computation) for English and
Chinese, each original with perturbed partners (insertion/deletion, replacement, transformation) and a rule-made
(``silver``) rationale; evaluation of masked-word prediction (Top-1/Top-3) and of rationales from any registered
explainer (token-F1, MAP, PCC with p < 0.05, MAP*). Records use TrustAI's golden/predict format (REFERENCE §4.5).
"""

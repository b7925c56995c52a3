"""interpeval: measure what NLP models can do and how interpretable their predictions are."""

__version__ = "0.1.0"

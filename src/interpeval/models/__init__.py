"""The model layer: one adapter per task kind over Hugging Face models, an offline zoo, and one training loop."""

from interpeval.models.base import KINDS, HiddenStates, Model, Target, say_truncated
from interpeval.models.kinds import (
    EncoderModel,
    ExtractiveQAModel,
    MaskedLMModel,
    MultipleChoiceModel,
    RegressionModel,
    SequenceClassificationModel,
)
from interpeval.models.load import load
from interpeval.models.tiny import tiny
from interpeval.models.zoo import available

__all__ = [
    "KINDS", "EncoderModel", "ExtractiveQAModel", "HiddenStates", "MaskedLMModel", "Model", "MultipleChoiceModel",
    "RegressionModel", "SequenceClassificationModel", "Target", "available", "load", "say_truncated", "tiny",
]

"""IQS, the Interpretation Quality Score benchmark (Xie, Vosoughi & Hassanpour; REFERENCE §6).

tasks (SST-2, STS-B, QNLI) → protocol (25 samples per class) → explanations (the paper's six methods) →
marking (continuous scores → green / red words) → study (the store's annotation studies, kind ``iqs``) →
score (plausibility, simplicity, reproducibility, IQS) → tables (Tables 1 and 2, agreement, cost, Figure 5).
"""

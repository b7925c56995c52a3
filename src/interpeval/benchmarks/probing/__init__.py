"""Multilingual probing: UD treebanks → SentEval tasks, one encoder pass cached per layer, probes, grids, views."""

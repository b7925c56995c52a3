"""Persistent results: runs, per-instance outputs and metric values in SQLite."""

from interpeval.store.sqlite import Run, RunInfo, Store, default_store_path, fingerprint_files

__all__ = ["Run", "RunInfo", "Store", "default_store_path", "fingerprint_files"]

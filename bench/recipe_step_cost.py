"""Seconds per training step of a zoo recipe on this machine, and the full schedule projected from them.

Runs the recipe's real data and settings through ``run_recipe`` twice into a scratch folder: 1 step, then 4 more
resumed from the checkpoint; the difference is 3 steps (loading the model and writing the checkpoint are in both
calls). ``--batch-size`` measures at a smaller batch when the recipe's does not fit in memory; the schedule is then
projected at the recipe's batch with the time per step taken as linear in the batch. Process CPU seconds / 2 is what
two idle cores would take while torch keeps both busy: on a loaded machine the wall time says little.

    python bench/recipe_step_cost.py me5-small-c3 --batch-size 4 [--data-root ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from interpeval.training.recipes import RECIPES, run_recipe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", choices=sorted(RECIPES))
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--data-root", default="../shared/data")
    args = parser.parse_args()
    settings = RECIPES[args.recipe].settings
    batch = args.batch_size or settings["batch_size"]
    n_train = len(RECIPES[args.recipe].build(Path(args.data_root)).train)
    marks = []
    with tempfile.TemporaryDirectory() as scratch:
        for steps in (1, 4):
            wall, cpu = time.perf_counter(), time.process_time()
            run_recipe(args.recipe, args.data_root, Path(scratch) / args.recipe, device="cpu",
                       overrides={"steps_this_run": steps, "batch_size": batch})
            marks.append((time.perf_counter() - wall, time.process_time() - cpu))
    wall_step, cpu_step = ((marks[1][i] - marks[0][i]) / 3 for i in (0, 1))
    steps = settings.get("max_steps") or settings["epochs"] * -(-n_train // settings["batch_size"])
    scale = settings["batch_size"] / batch
    print(json.dumps({"recipe": args.recipe, "batch": batch, "wall_s_per_step": round(wall_step, 1),
                      "cpu_s_per_step": round(cpu_step, 1), "recipe_batch": settings["batch_size"],
                      "schedule_steps": steps, "projected_h_at_this_load": round(wall_step * scale * steps / 3600, 1),
                      "projected_h_2_idle_cores": round(cpu_step / 2 * scale * steps / 3600, 1)}))


if __name__ == "__main__":
    main()

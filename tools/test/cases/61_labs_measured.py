"""The lab checks that measure contention, run alone (tools/test/lanes.py SOLO).

Lab 9's grader judges the buffer cache's lock by lock_stat's share of contended acquisitions at
-smp 4: the handout's one lock is contended on 4-60% of them when four vCPUs really run at once,
the split cache on well under 1%. With another lane's guest on the host's other core, the four
vCPUs take turns on one core and even the handout's one lock is hardly ever contended (0.1%
seen): its grade would say the work was done. So the check that the untouched handout fails runs
here, with the host to itself, as the other checks that time things do. (The solved tree's check
stays in 60_labs: less contention can only help it.)
"""
import importlib


def run(h):
    labs = importlib.import_module("60_labs")     # the handouts and the grading, as there
    for lab in labs.MEASURED_ALONE:
        name = f"labs[lab{lab}] the untouched handout scores at most 10%"
        if lab not in labs.LABS or not h.wanted(name):
            continue
        out_dir, why = labs.make_handout(h, lab, {})
        if not out_dir:
            h.record(name, False, f"the lab {lab} handout: {why}")
            continue
        labs.record_handout_grade(h, out_dir, lab, name)

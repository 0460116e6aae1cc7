"""Input kinds beyond one binary score: multi-class, soft labels, example costs, tree leaves.

The canonical table of every kind (:mod:`.canonical_kinds`), and each kind's own analysis:
class reference curves and multi-class AUCs (:mod:`.multiclass`), probabilistic labels
(:mod:`.soft_labels`), example-specific costs (:mod:`.instance_costs`) and the labelings of
a tree's leaves (:mod:`.leaves`). Above :mod:`..inference`.
"""

"""The mistake-bound and regret proofs, as chains of series checked at every round (:mod:`.base`: Proof, Chain, Assumption).
One module per family of learners builds its proofs from a finished run."""

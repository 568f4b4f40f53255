"""Strategy: sweeps of a policy field, best responses, equilibria and paired comparisons."""

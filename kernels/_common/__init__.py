"""Game-agnostic numba helpers shared by every kernel (RNG, masks, chance tables, layout, contract)."""

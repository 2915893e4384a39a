"""Rules kernels: one numba room per game, all written against the contract in ``_common.contract``."""

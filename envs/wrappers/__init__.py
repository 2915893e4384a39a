"""Views of the games for single-agent training: one learning seat (gymnasium) and a batched VecEnv."""

from .single_seat import SingleSeatEnv, resolve_opponents

__all__ = ["SingleSeatEnv", "resolve_opponents", "KernelVecEnv"]


def __getattr__(name):  # the vector env needs stable-baselines3 (the ``train`` extra): import it lazily
    if name == "KernelVecEnv":
        from .vector import KernelVecEnv

        return KernelVecEnv
    raise AttributeError(name)

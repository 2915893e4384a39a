"""``PolicyAgent``: a trained model as an agent, e.g. ``policy:path=model.zip`` in the arena: an SB3
(Maskable)PPO zip, a self-play ``policy.pt`` / ``checkpoint.pt`` from ``train --algo selfplay``, or an az network
(``az.pt`` from ``train --algo az`` or ``imitate``) played by its policy head alone, without search."""

from __future__ import annotations

import os

import numpy as np


def _model_file(path) -> str:
    """The saved model's file: ``path`` itself or ``path + ".zip"`` (SB3 adds the suffix when it saves);
    a missing file is a clear ValueError naming the path given (not SB3's ``model.zip.zip``)."""
    path = os.fspath(path)
    for candidate in (path, path + ".zip"):
        if os.path.isfile(candidate):
            return candidate
    raise ValueError(
        f"policy agent: no saved model at {path!r} (nor {path + '.zip'!r}); "
        "pass path=<model.zip> written by `tabletop-zoo train` or model.save()"
    )


class PolicyAgent:
    """Plays the model's action for its seat's observation, restricted to the legal mask."""

    name = "policy"

    def __init__(
        self,
        path: str | None = None,
        model=None,
        deterministic: bool = True,
        seed: int | None = None,
        game_id: str | None = None,
    ):
        if model is None:
            if not path:
                raise ValueError("policy agent needs path=<model.zip> (a saved MaskablePPO model)")
            path = _model_file(path)
            model = _load_torch(path) if _is_torch_file(path) else _load_sb3(path)
        trained_for = getattr(model, "game_id", None)  # self-play and az files name their game; SB3 zips do not
        if game_id is not None and trained_for is not None and trained_for != game_id:
            raise ValueError(f"policy agent: {path or 'the model'} was trained for {trained_for!r}, not {game_id!r}")
        self.model = model
        self.deterministic = bool(deterministic)
        if seed is not None:
            self.model.set_random_seed(int(seed) % 2**32)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, bool), deterministic=self.deterministic
        )
        return int(action)


def _is_torch_file(path: str) -> bool:
    """Self-play and az files are torch pickles (``.pt``); SB3 models are zip archives."""
    return str(path).endswith(".pt")


def _load_torch(path: str):
    """A self-play policy or checkpoint, or an az network's policy head (torch is imported only when a policy
    is used)."""
    import torch

    from tabletop_zoo.agents.az.network import AZ_FORMAT, AZPolicy, az_from_blob
    from tabletop_zoo.selfplay.network import load_policy

    try:
        data = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as e:  # not a torch file at all
        raise ValueError(f"policy agent: {path} is not a torch file: {e}") from None
    found = data.get("format") if isinstance(data, dict) else None
    if found == AZ_FORMAT:
        net, blob = az_from_blob(data, path)
        return AZPolicy(net, blob["game"], blob["meta"])
    try:
        return load_policy(path, data)
    except ValueError as e:
        raise ValueError(f"policy agent: {e}, nor an az network ({AZ_FORMAT!r})") from None


def _load_sb3(path: str):
    from sb3_contrib import MaskablePPO  # torch is imported only when a policy is used

    return MaskablePPO.load(path, device="cpu")
